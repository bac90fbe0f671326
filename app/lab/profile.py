"""Lab profiles: a diagnostics bundle of verbatim captures plus ``lab.toml`` (the lab model).

``lab.toml``::

    [lab]
    description = "..."
    irq_refuse = [46]            # IRQs whose smp_affinity refuses every write (EINVAL)
    kernel = "6.12.47+rpt-rpi-v8"  # optional: the kernel the driver models answer as (its
                                 # driver_caps.json series) and the lab's `uname -r` shows;
                                 # default the captured `uname -a` / `uname -r`
    machine = "aarch64"          # optional: the lab's `uname -m` (default the captured one);
                                 # uname fields no capture or key gives read "unknown"
    link_down_seconds = 2.5      # optional: how long a driver's restart (a renegotiation, a
                                 # reset, a close/open) keeps the link down; default 2.0, the
                                 # shortest real drop (resources/tuning/link_restart.json: 2.0
                                 # to 3.1 s seen); 0: up at once

    [cpu]
    count = 4                    # defaults to the CPU columns of the captured /proc/interrupts
    governors = ["conservative", "ondemand", "userspace", "powersave", "performance", "schedutil"]
    governor = "ondemand"
    governor_modules = []        # governors built as modules (Debian: powersave, ondemand ...):
                                 # not listed until a write loads them, as the kernel's
    isolated = []                # optional: CPUs the Pi boots with isolcpus= (its `isolated`
                                 # list; an RPS map is cut to the others, as store_rps_map does)
    min_khz = 600000
    max_khz = 1500000

    [[interface]]
    name = "eth1"                # the name inside the lab
    test = true                  # the NIC under test (exactly one; default the first)
    mac = "00:0e:c6:ca:39:ad"    # optional
    xps_enoent = true            # optional: ENOENT xps_cpus (always for single-queue drivers)
    driver = "ax88179_178a"      # optional: the stateful ethtool's model (ethtool/drivers/
                                 # <driver>.toml, or a driver_caps.json "pasted" driver)
    chip = "RTL8125B"            # optional: as lspci/lsusb name it (chip-specific refusals)
    queues = 1                   # optional: TX and RX queues the board's device tree or hardware
                                 # gives (stmmac, macb); default the driver_caps.json's
    mac_clock_mhz = 125          # optional: the MAC's clock where the driver counts its cycles
                                 # (stmmac rx-usecs); default the driver_caps.json's
    [interface.link]
    pi_to_pc_mbps = 736          # measured TCP goodput the lab reproduces (iperf3 figures)
    pc_to_pi_mbps = 949
    full_duplex_pi_to_pc_mbps = 163   # optional: the rates while both directions carry traffic
    full_duplex_pc_to_pi_mbps = 902
    link_speed_mbps = 1000       # optional: used when a direction has no measured figure; also
                                 # the speed the lab's sysfs shows and the driver models use
                                 # (r8169's coalescing scale, atlantic's defaults); default
                                 # veth's 10000
    delay_ms = 0                 # optional, needs sch_netem
    loss_pct = 0

    [[tweak_effects]]            # optional; applied live by the lab's shaper (see effects.py)
    interface = "eth1"
    when = { governor = "performance", rps = true }   # every condition must hold
    pi_to_pc_mbps = 834          # any of the four link rates
    source = "..."

    [power]                      # optional: what the lab's get_throttled and thermal zone show
    throttled = "0x50005"        # default "0" (see sbctune.lab.power)
    temp_c = 62.5                # optional

    [[shared_limit]]             # optional: several NICs' total (see sbctune.lab.shared_limit)
    interfaces = ["eth0", "eth1"]
    pc_to_pi_mbps = 3060

    [pci]                        # optional: PCI functions with no driver bound, served as
    unbound = ["0000:01:00.0"]   # sysfs folders without a driver link (sbctune.lab.pci_unbound)

``when`` keys: ``governor`` (name), ``rps`` / ``xps`` (true: every rx/tx queue of the
interface has a non-zero mask; false: none has), ``cpu_max_khz`` (scaling_max_freq at least
this), ``cpu_khz`` (the clock under load at least this), ``driver`` (never true in the lab: it
cannot swap drivers; kept for documentation).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sbctune.inventory.bundle import Bundle, BundleError, read_bundle
from sbctune.lab import irq_model, irq_refusal, pcie_vectors, uname
from sbctune.lab.errors import ProfileError
from sbctune.lab.ethtool_models import known_drivers
from sbctune.lab.ethtool_table_queues import single_queue
from sbctune.lab.pci_unbound import parse_unbound
from sbctune.lab.power import PowerState, PowerValueError, parse_power_table
from sbctune.lab.proc_modules import PROC_MODULES, modules_from_lsmod
from sbctune.lab.profile_cpu import CpuModel, parse_cpu
from sbctune.lab.profile_effects import TweakEffect, parse_tweak_effects
from sbctune.lab.profile_lab import (
    interrupts_layout,
    irq_refuse,
    lab_kernel,
    lab_machine,
    link_down_seconds,
    modelled_interrupts,
    pcie_host,
)
from sbctune.lab.profile_tables import check_keys, number, sub_table
from sbctune.lab.shared_limit import SharedLimit, parse_shared_limits
from sbctune.lab.uname import UnameFacts
from sbctune.safefiles import UnsafeMember, regular_file

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

LAB_TOML = "lab.toml"
MAX_INTERFACES = 4
# Ethernet: a 1500-byte MTU frame takes 1538 bytes on the wire (preamble+SFD 8, header 14,
# FCS 4, inter-frame gap 12) and carries 1448 bytes of TCP payload (timestamps on).
WIRE_FRAME_BYTES = 1538
TCP_PAYLOAD_BYTES = 1448
_IFNAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,14}$")
_MAC = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")


@dataclass(frozen=True)
class LinkModel:
    """What the real link delivered, as iperf3 TCP goodput in Mbit/s per direction."""

    pi_to_pc_mbps: float | None = None
    pc_to_pi_mbps: float | None = None
    full_duplex_pi_to_pc_mbps: float | None = None
    full_duplex_pc_to_pi_mbps: float | None = None
    link_speed_mbps: float | None = None
    delay_ms: float = 0.0
    loss_pct: float = 0.0

    def goodput_mbps(self, direction: str) -> float | None:
        """Target goodput for ``pi_to_pc`` or ``pc_to_pi``; the line rate's if not measured."""
        measured = self.pi_to_pc_mbps if direction == "pi_to_pc" else self.pc_to_pi_mbps
        if measured is not None:
            return measured
        if self.link_speed_mbps is not None:
            return self.link_speed_mbps * TCP_PAYLOAD_BYTES / WIRE_FRAME_BYTES
        return None


@dataclass(frozen=True)
class InterfaceSpec:
    name: str
    test: bool
    link: LinkModel
    mac: str | None = None
    xps_enoent: bool = False
    description: str = ""
    driver: str = ""
    chip: str = ""  # as lspci/lsusb name it: chip-specific refusals (RTL8125 coalescing)
    queues: int | None = None  # the board's queues in use (device tree, hardware): stmmac, macb
    mac_clock_mhz: int | None = None  # the board's MAC (CSR) clock: stmmac's rx-usecs units


@dataclass(frozen=True)
class LabProfile:
    name: str
    path: Path
    description: str
    bundle: Bundle
    interfaces: tuple[InterfaceSpec, ...]
    cpu: CpuModel
    irqs: tuple[int, ...]
    """Numbered IRQs of the captured /proc/interrupts (the lab's /proc/irq/N)."""
    irq_refuse: tuple[int, ...] = ()
    tweak_effects: tuple[TweakEffect, ...] = field(default_factory=tuple)
    shared_limits: tuple[SharedLimit, ...] = ()  # see sbctune.lab.shared_limit
    power: PowerState = field(default_factory=PowerState)
    kernel: str = ""  # as `uname -r` says: the driver models' kernel series ("" every series)
    uname: UnameFacts = field(default_factory=UnameFacts)  # what the lab's `uname` answers
    pcie_host: str = ""  # [lab] pcie_host: the board's PCIe controller (sbctune.lab.irq_model)
    # [lab] link_down_seconds: how long a driver's restart keeps the link down (0: up at once;
    # a profile without the key: the shortest real drop, profile_lab.default_link_down_seconds)
    link_down_seconds: float = 0.0
    modelled_files: dict[str, str] = field(default_factory=dict)
    """Hardware files the profile did not capture but the lab models (sbctune.lab.irq_model:
    /proc/interrupts with the PCIe NICs' vectors)."""

    pci_unbound: tuple[str, ...] = ()
    """[pci] unbound: PCI functions with no driver bound (sbctune.lab.pci_unbound)."""

    @property
    def test_interface(self) -> InterfaceSpec:
        return next(i for i in self.interfaces if i.test)


# --------------------------------------------------------------------------- locating


def profiles_root() -> Path:
    """The folder of shipped profiles (resources/lab/profiles)."""
    from sbctune.resources import resource_root

    return Path(str(resource_root())) / "lab" / "profiles"


def shipped_profiles() -> list[str]:
    root = profiles_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / LAB_TOML).is_file())


def find_profile(name_or_path: str | Path) -> Path:
    """Resolve a shipped profile name or a path to a profile folder."""
    text = str(name_or_path)
    candidate = Path(text).expanduser()
    looks_like_path = "/" in text or text.startswith(".") or candidate.exists()
    if looks_like_path:
        if (candidate / LAB_TOML).is_file():
            return candidate.resolve()
        raise ProfileError(
            f"{candidate} is not a lab profile: it has no {LAB_TOML}",
            "a profile is a folder holding a diagnostics bundle plus lab.toml",
        )
    shipped = profiles_root() / text
    if (shipped / LAB_TOML).is_file():
        return shipped
    known = ", ".join(shipped_profiles()) or "none found"
    raise ProfileError(f"unknown lab profile {text!r}", f"shipped profiles: {known}")


# --------------------------------------------------------------------------- parsing


def _parse_link(table: Mapping[str, Any], where: str) -> LinkModel:
    rates = (
        "pi_to_pc_mbps",
        "pc_to_pi_mbps",
        "full_duplex_pi_to_pc_mbps",
        "full_duplex_pc_to_pi_mbps",
        "link_speed_mbps",
    )
    check_keys(table, {*rates, "delay_ms", "loss_pct"}, where)
    values = {key: number(table, key, where) for key in rates}
    loss = number(table, "loss_pct", where, positive=False) or 0.0
    if loss >= 100:
        raise ProfileError(f"{where}: loss_pct must be below 100")
    return LinkModel(
        **values,
        delay_ms=number(table, "delay_ms", where, positive=False) or 0.0,
        loss_pct=loss,
    )


def _parse_interfaces(data: Mapping[str, Any], where: str) -> tuple[InterfaceSpec, ...]:
    items = data.get("interface")
    if not isinstance(items, list) or not items:
        raise ProfileError(f"{where}: at least one [[interface]] is required")
    if len(items) > MAX_INTERFACES:
        raise ProfileError(f"{where}: at most {MAX_INTERFACES} interfaces are supported")
    specs = [_parse_interface(item, f"{where}: interface #{i + 1}") for i, item in enumerate(items)]
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ProfileError(f"{where}: interface names must be unique, got {names}")
    tests = [s for s in specs if s.test]
    if len(tests) > 1:
        raise ProfileError(f"{where}: only one interface can be the NIC under test (test = true)")
    if not tests:
        specs[0] = replace(specs[0], test=True)  # its queues and clock kept
    return tuple(specs)


def _parse_interface(item: Any, here: str) -> InterfaceSpec:
    """One [[interface]] table."""
    if not isinstance(item, dict):
        raise ProfileError(f"{here} must be a table")
    keys = {"name", "test", "link", "mac", "xps_enoent", "description", "driver", "chip"}
    keys |= {"queues", "mac_clock_mhz"}
    check_keys(item, keys, here)
    name = item.get("name")
    if not isinstance(name, str) or not _IFNAME.match(name):
        raise ProfileError(f"{here}: name must be an interface name like eth0, got {name!r}")
    mac = item.get("mac")
    if mac is not None and (not isinstance(mac, str) or not _MAC.match(mac)):
        raise ProfileError(f"{here}: mac must look like 00:0e:c6:ca:39:ad, got {mac!r}")
    for flag in ("test", "xps_enoent"):
        if not isinstance(item.get(flag, False), bool):
            raise ProfileError(f"{here}: {flag} must be true or false")
    link = _parse_link(sub_table(item, "link", here), f"{here} link")
    driver, chip, queues = (
        _driver(item.get("driver", ""), here),
        str(item.get("chip", "")),
        item.get("queues"),
    )
    if queues is not None and (not isinstance(queues, int) or not 1 <= queues <= 64):
        raise ProfileError(f"{here}: queues must be a count from 1 to 64, got {queues!r}")
    clock = item.get("mac_clock_mhz")
    if clock is not None and (not isinstance(clock, int) or not 1 <= clock <= 1000):
        raise ProfileError(f"{here}: mac_clock_mhz must be from 1 to 1000, got {clock!r}")
    if link.goodput_mbps("pi_to_pc") is None or link.goodput_mbps("pc_to_pi") is None:
        raise ProfileError(
            f"{here}: the link model needs pi_to_pc_mbps and pc_to_pi_mbps (or link_speed_mbps)"
        )
    return InterfaceSpec(
        name=name,
        test=bool(item.get("test", False)),
        link=link,
        mac=mac,
        # never kinder than the kernel: net-sysfs.c xps_cpus_store on one queue
        xps_enoent=bool(item.get("xps_enoent", False)) or single_queue(driver, chip, queues),
        description=str(item.get("description", "")),
        driver=driver,
        chip=chip,
        queues=queues,
        mac_clock_mhz=clock,
    )


def _driver(value: Any, where: str) -> str:
    if value == "":
        return ""
    if not isinstance(value, str) or value not in known_drivers():
        raise ProfileError(
            f"{where}: driver {value!r} has no ethtool model",
            "known drivers: " + ", ".join(known_drivers()),
        )
    return value


def _read_lab_toml(path: Path, where: str) -> dict[str, Any]:
    try:
        # `lab up` runs as root: only the profile's own regular files, never a link out of it
        # (a files/ entry linking to /etc/shadow would be copied into the lab).
        toml_path = regular_file(path, LAB_TOML)
    except UnsafeMember as exc:
        raise ProfileError(f"profile {path}: {exc.message}", exc.hint) from exc
    if toml_path is None:
        raise ProfileError(f"{path} is not a lab profile: it has no {LAB_TOML}")
    try:
        data: dict[str, Any] = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{where} is not valid TOML: {exc}") from exc
    return data


def _read_profile_bundle(path: Path) -> Bundle:
    try:
        return read_bundle(path)
    except BundleError as exc:
        raise ProfileError(f"profile {path}: {exc.message}", exc.hint) from exc


def _parse_effects(
    data: Mapping[str, Any], interfaces: tuple[InterfaceSpec, ...], where: str
) -> tuple[TweakEffect, ...]:
    """[[tweak_effects]], each naming (if any) an interface the profile has."""
    effects = parse_tweak_effects(data, where)
    names = {spec.name for spec in interfaces}
    for effect in effects:
        if effect.interface is not None and effect.interface not in names:
            raise ProfileError(
                f"{where}: a tweak effect names interface {effect.interface!r}, which the"
                f" profile lacks (it has {', '.join(sorted(names))})"
            )
    return effects


def _parse_power(data: Mapping[str, Any], where: str) -> PowerState:
    try:
        return parse_power_table(sub_table(data, "power", where))
    except PowerValueError as exc:
        raise ProfileError(f"{where} [power]: {exc}") from exc


def load_profile(name_or_path: str | Path) -> LabProfile:
    """Find and parse a profile; raises ProfileError with what is wrong and where (the first
    thing wrong, in the order below)."""
    path = find_profile(name_or_path)
    where = str(path / LAB_TOML)
    data = _read_lab_toml(path, where)
    tables = {"lab", "cpu", "interface", "tweak_effects", "power", "shared_limit", "pci"}
    check_keys(data, tables, where)
    bundle = _read_profile_bundle(path)
    lab = sub_table(data, "lab", where)
    check_keys(
        lab,
        {"description", "irq_refuse", "kernel", "machine", "pcie_host", "link_down_seconds"},
        f"{where} [lab]",
    )
    kernel = lab_kernel(lab, bundle, where)
    machine = lab_machine(lab, where)
    captured_cpus, irqs = interrupts_layout(bundle.file("/proc/interrupts"))
    refuse = irq_refuse(lab, irqs, where)
    # and every captured line whose chip cannot move it (lan78xx-irqs, the GIC's per-CPU lines)
    chip_fixed = irq_refusal.fixed_lines(bundle.file("/proc/interrupts"), kernel)
    refuse = [*refuse, *(n for n in chip_fixed if n not in refuse)]
    interfaces = _parse_interfaces(data, where)
    cpu = parse_cpu(data, captured_cpus, where)
    host = pcie_host(lab, where)
    nics = [irq_model.Nic(i.name, i.driver, i.chip) for i in interfaces]
    if never_opens := pcie_vectors.open_refused(nics, cpu.count, host, kernel):
        raise ProfileError(f"{where}: {never_opens}")  # the kernel would never open it
    modelled: dict[str, str] = {}
    if bundle.file("/proc/interrupts") is None:  # a capture is never replaced
        lines = modelled_interrupts(nics, cpu.count, host, kernel)
        if lines is not None:
            modelled["/proc/interrupts"], irqs, refused = lines
            refuse = [*refuse, *refused]
    if (modules := modules_from_lsmod(bundle)) is not None:
        modelled[PROC_MODULES] = modules
    effects = _parse_effects(data, interfaces, where)
    power = _parse_power(data, where)
    return LabProfile(
        name=path.name,
        path=path,
        description=str(lab.get("description", "")),
        bundle=bundle,
        interfaces=interfaces,
        cpu=cpu,
        irqs=irqs,
        irq_refuse=tuple(refuse),
        tweak_effects=effects,
        power=power,
        shared_limits=parse_shared_limits(data, [i.name for i in interfaces], where),
        kernel=kernel,
        uname=uname.facts(bundle, kernel, machine),
        pcie_host=host,
        modelled_files=modelled,
        link_down_seconds=link_down_seconds(lab, where),
        pci_unbound=parse_unbound(data, where),
    )
