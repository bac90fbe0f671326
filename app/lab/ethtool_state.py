"""The starting state of the lab's stateful ``ethtool`` (see ``fake_ethtool``), per interface.

It comes from the interface's driver model (``resources/lab/ethtool/drivers/<driver>.toml``,
each value with its kernel source), held to the driver capability table read from the kernel's
source (``ethtool_table``), and, where the profile captured them, from the real
``ethtool -k IFACE`` / ``ethtool -g IFACE`` outputs, which win over both.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from sbctune.inventory.bundle import Bundle
from sbctune.lab import (
    carrier_drop,
    fake_ethtool,
    fake_ethtool_dispatch,
    fake_ethtool_shown,
    fake_ethtool_tables,
    irq_model,
    usb_path,
)
from sbctune.lab.board import board_name
from sbctune.lab.ethtool_misc import misc_state
from sbctune.lab.ethtool_models import data_root, driver_model, known_drivers, load_toml
from sbctune.lab.ethtool_options import options_state
from sbctune.lab.ethtool_rxfh import rxfh_state
from sbctune.lab.ethtool_table import hold_to_table
from sbctune.lab.ethtool_table_drvinfo import bus_info_from_parent, driver_info
from sbctune.lab.ethtool_table_eee import eee_within_link_modes
from sbctune.lab.ethtool_table_queues import channels_state, driver_queues, queue_pairs
from sbctune.lab.fake_ethtool_irqs import HELD_FILE
from sbctune.lab.fake_ethtool_shown import shown_name
from sbctune.lab.fake_ethtool_tables import LEGACY, RING_PARAMS
from sbctune.lab.link_state import link_state
from sbctune.lab.overlay import fake_script
from sbctune.lab.profile import LabProfile
from sbctune.lab.state import write_json
from sbctune.resources import resource_root
from sbctune.tuning import driver_caps

__all__ = ["STATE_FILE", "build_state", "data_root", "driver_model", "install", "known_drivers"]

STATE_FILE = "ethtool/state.json"
# What a lab NIC without a profile speed shows (drivers/net/veth.c veth_get_link_ksettings:
# SPEED_10000); sbctune.lab.overlay.link_files binds the profile's speed over it.
VETH_SPEED_MBPS = 10000
_FEATURE_LINE = re.compile(r"^\s*([a-z0-9_-]+): (on|off)( \[fixed\])?")
_RING_LINE = re.compile(r"^(RX|RX Mini|RX Jumbo|TX):\s+(\d+|n/a)\s*$")
_RING_KEYS = {"RX": "rx", "RX Mini": "rx-mini", "RX Jumbo": "rx-jumbo", "TX": "tx"}


def _features(model: dict[str, Any]) -> dict[str, Any]:
    table = load_toml(data_root() / "features.toml")
    bits: list[str] = table["bits"]
    on = set(model.get("features", {}).get("on", [])) | set(table["soft_on"])
    off = set(model.get("features", {}).get("off", [])) | set(table["soft_off"])
    # on but not in hw_features (stmmac: HIGHDMA, VLAN tag parsing): shown "on [fixed]"
    fixed_on = set(model.get("features", {}).get("fixed_on", []))
    wanted = {name: name in on for name in bits if name in (on | off) - fixed_on}
    fixed = {name: name in table["always_fixed_on"] or name in fixed_on
             for name in bits if name not in wanted}  # fmt: skip
    return {"order": bits, "order_display": bits, "wanted": wanted, "fixed": fixed}


def _apply_features_capture(features: dict[str, Any], text: str) -> None:
    """Take on/off and [fixed] from a captured ``ethtool -k`` (kernel or single-legacy names)."""
    singles = {legacy: members[0] for legacy, members in LEGACY.items()}
    singles = {k: v for k, v in singles.items() if len(LEGACY[k]) == 1}
    for line in text.splitlines():
        match = _FEATURE_LINE.match(line)
        if not match:
            continue
        name = singles.get(match.group(1), match.group(1))
        if name not in features["order"]:
            continue
        on = match.group(2) == "on"
        features["wanted"].pop(name, None)
        features["fixed"].pop(name, None)
        if match.group(3):
            features["fixed"][name] = on
        else:
            features["wanted"][name] = on


def _apply_rings_capture(rings: dict[str, Any], text: str) -> None:
    section = None
    for line in text.splitlines():
        if line.startswith("Pre-set maximums"):
            section = "max"
        elif line.startswith("Current hardware settings"):
            section = "cur"
        elif section and (match := _RING_LINE.match(line)):
            value = 0 if match.group(2) == "n/a" else int(match.group(2))
            rings[section][_RING_KEYS[match.group(1)]] = value


def _captured(bundle: Bundle, args: str) -> str | None:
    for cmdline in (f"ethtool {args}", f"sudo ethtool {args}"):
        text = bundle.command(cmdline)
        if text and (bundle.exit_code(cmdline) or 0) == 0:
            return text
    return None


def interface_state(
    driver: str,
    bundle: Bundle,
    ifname: str,
    chip: str = "",
    kernel: str = "",
    queues: tuple[int, int] | None = None,
    clock_mhz: int | None = None,
    speed_mbps: float | None = None,
    mac: str = "",
    msix: bool = True,
) -> dict[str, Any]:
    """One interface's state; `queues` its (TX, RX) queues in use (ethtool_table.driver_queues);
    `clock_mhz` the board's MAC clock (stmmac's rx-usecs units); `speed_mbps` the link's speed
    (the profile's, as the lab's sysfs shows it: r8169's coalescing scale, atlantic's
    defaults); `msix` False: the PCIe host gives no MSI-X (irq_model.pcie_msix)."""
    model = driver_model(driver)
    state: dict[str, Any] = {"driver": driver, "source": model.get("source", "")}
    rings = model.get("rings")
    if rings is not None:
        state["rings"] = {
            "max": {p: int(rings.get("max", {}).get(p, 0)) for p in RING_PARAMS},
            "cur": {p: int(rings.get("cur", {}).get(p, 0)) for p in RING_PARAMS},
            "min": dict(rings.get("min", {})),
            "settable": bool(rings.get("settable", False)),
        }
    else:
        state["rings"] = None
    state["coalesce"] = dict(model["coalesce"]) if "coalesce" in model else None
    state["eee"] = dict(model["eee"]) if "eee" in model else None
    if state["eee"] is not None:
        eee = state["eee"]
        eee["active"] = bool(eee.get("enabled")) and bool(eee.get("link_partner"))
    state["pause"] = dict(model["pause"]) if "pause" in model else None
    state["features"] = _features(model)
    # netdev_fix_features as the lab's kernel series has it (driver_caps.json, _kernel)
    rules = driver_caps.kernel_fact("features_fix_rules", kernel or None)
    state["features"]["fix_rules"] = list(rules[0]) if rules else []
    hold_to_table(state, driver, chip, kernel, clock_mhz, speed_mbps)
    state["channels"] = channels_state(driver, chip, kernel, queues, msix)
    queue_pairs(state, driver, chip, kernel)
    state["rxfh"] = rxfh_state(driver, chip, kernel, queues)  # ethtool -x
    state["misc"] = misc_state(driver, chip, kernel, mac, queues)  # ethtool -n, -T, -P, -d
    state["options"] = options_state(driver, chip, kernel, ifname)  # -m, -t, -e ... (audit 7a)
    state["stats"] = stats_names(driver)
    state["stats_live"] = dict(model.get("stats", {}).get("live", {}))  # macb: rx_frames
    state["stats_stack"] = stats_read_stack(driver)  # drops the core counted: bcmgenet only
    per_queue = stats_per_queue(driver)
    if state["stats"] and per_queue:
        # named per queue in use after the tables (igb_get_strings, stmmac_get_qstats_string,
        # gem_get_ethtool_strings, aq_ethtool_get_strings): ethtool_stats.json "per_queue"
        state["stats_per_queue"] = per_queue
        state["stats_queues"] = list(queues or (1, 1))  # (TX, RX) when no channels say
    # ethtool IFACE / -s: the profile's capture with the lab's live link, else the driver's facts
    state["link"] = link_state(
        driver, kernel, chip, _captured(bundle, ifname), speed_mbps, board_name(bundle)
    )
    eee_within_link_modes(state, driver, chip, kernel)  # phylib's EEE modes are the link's (6.12)
    captured_i = _captured(bundle, f"-i {ifname}") is not None
    state["info"] = None if captured_i else driver_info(driver, kernel, chip)
    # A real capture of this very NIC wins over every model.
    if state["rings"] is not None and (text := _captured(bundle, f"-g {ifname}")) is not None:
        _apply_rings_capture(state["rings"], text)
    if (text := _captured(bundle, f"-k {ifname}")) is not None:
        _apply_features_capture(state["features"], text)
    return state


def _stats_entry(driver: str) -> dict[str, Any] | None:
    path = Path(str(resource_root())) / "kernel_source" / "ethtool_stats.json"
    entry = json.loads(path.read_text(encoding="utf-8"))["drivers"].get(driver)
    return dict(entry) if isinstance(entry, dict) else None


def stats_names(driver: str) -> list[str] | None:
    """The names the driver's ``ethtool -S`` prints from its string tables
    (resources/kernel_source/ethtool_stats.json); [] where it has no get_ethtool_stats ("no
    stats available"), None where the tables do not cover the driver (the capture answers).
    The names it prints per queue follow them (``stats_per_queue``)."""
    entry = _stats_entry(driver)
    return None if entry is None else list(entry["names"])


def stats_read_stack(driver: str) -> bool:
    """Whether the driver's ``ethtool -S`` values come from dev_get_stats (the interface's
    counters, the core's drops included): ethtool_stats.json "stack_counters", read from its
    get_ethtool_stats in every series (audit 21)."""
    entry = _stats_entry(driver) or {}
    return bool((entry.get("stack_counters") or {}).get("dev_get_stats"))


def stats_per_queue(driver: str) -> dict[str, list[str]] | None:
    """The driver's per-queue name templates ("{n}" the queue): "tx" and "rx" (every TX
    queue's, then every RX queue's) or "both" (each queue's together), from the same table."""
    entry = _stats_entry(driver) or {}
    rule = entry.get("per_queue") or {}
    sides = {side: list(rule[side]) for side in ("tx", "rx", "both") if rule.get(side)}
    return sides or None


def build_state(profile: LabProfile) -> dict[str, Any]:
    msix = irq_model.pcie_msix(profile.pcie_host, profile.kernel)  # Debian's CM4: no MSI-X
    interfaces = {
        spec.name: interface_state(
            spec.driver,
            profile.bundle,
            spec.name,
            spec.chip,
            profile.kernel,
            driver_queues(spec.driver, spec.chip, profile.cpu.count, spec.queues, msix),
            spec.mac_clock_mhz,
            spec.link.link_speed_mbps or VETH_SPEED_MBPS,  # the speed the lab's sysfs shows
            spec.mac or "",
            msix,
        )
        for spec in profile.interfaces
        if spec.driver
    }
    # net/ethtool/ioctl.c ethtool_get_drvinfo: version is the running kernel's release before
    # the driver's get_drvinfo, which copies the PCI address into bus-info (igb_get_drvinfo,
    # rtl8169_get_drvinfo ...): the lab's kernel where the profile names it, the address the
    # lab gave the NIC (irq_model) where it models one
    nics = [irq_model.Nic(s.name, s.driver, s.chip) for s in profile.interfaces]
    pci = irq_model.addresses(nics, profile.cpu.count, profile.pcie_host, profile.kernel)
    out: dict[str, Any] = {"schema": 1, "interfaces": interfaces}
    if "/proc/interrupts" in profile.modelled_files:  # ethtool -L requests the vectors again
        most = {name: int(((st.get("channels") or {}).get("max") or {}).get("combined") or 0)
                for name, st in interfaces.items()}  # fmt: skip
        irqs = irq_model.reinit_model(nics, profile.cpu.count, profile.pcie_host,
                                      profile.kernel, most)  # fmt: skip
        if irqs:
            out["irqs"] = irqs
    board, lsusb_t = board_name(profile.bundle), profile.bundle.command("lsusb -t")
    usb = {s.name: path for s in profile.interfaces
           if (path := usb_path.bus_info(s.driver, profile.kernel, board, lsusb_t))}  # fmt: skip
    platform = {s.name: n for s in profile.interfaces
                if (n := platform_name(s.driver, s.chip, profile.kernel))}  # fmt: skip
    for name, state in interfaces.items():
        info = state.get("info")
        if info is not None and name in platform:
            info["bus-info"] = platform[name]
        if info is not None and name in pci:
            info["bus-info"] = pci[name]
            if profile.kernel and profile.kernel != "unknown":
                info.setdefault("version", profile.kernel)
        if info is not None and name in usb:
            info["bus-info"] = usb[name]  # usb_make_path: the NIC's place in lsusb -t
    return out


def platform_name(driver: str | None, chip: str | None, kernel: str = "") -> str | None:
    """A platform NIC's ``ethtool -i`` bus-info: with no get_drvinfo of the driver's own (macb
    has none), ethtool_get_drvinfo (net/ethtool/ioctl.c) copies dev_name() of the netdev's
    parent, the platform device its board's device tree names ("1f00100000.ethernet", the
    Pi 5's RP1 GEM): the catalog's `platform_names` of the chip the profile names, which the
    inventory reads back (catalog.chip_on_platform). 6.12 does it also after a get_drvinfo
    that writes no bus-info (bcmgenet: ethtool_table_drvinfo.bus_info_from_parent); there a
    profile that names no chip takes the driver's one platform chip with a name (GENET: the
    BCM2711's "fd580000.ethernet")."""
    from sbctune.catalog import load_catalog

    if not driver:
        return None
    caps = driver_caps.caps(driver)
    from_parent = bus_info_from_parent(driver, kernel)
    if caps is not None and caps.has("get_drvinfo") and not from_parent:
        return None  # the driver writes its own bus-info (or 6.1 leaves it empty)
    named = [c for c in load_catalog().chips_by_driver(driver)
             if c.bus == "platform" and c.platform_names]  # fmt: skip
    if not chip:
        return named[0].platform_names[0] if from_parent and len(named) == 1 else None
    wanted = chip.casefold()
    return next((c.platform_names[0] for c in named if wanted in c.name.casefold()), None)


_OWN_IMPORTS = re.compile(r"^# @tables-start.*?^# @tables-end$", re.M | re.S)
_FUTURE = re.compile(r"^from __future__ import annotations\n", re.M)


def _module_text(name: str) -> str:
    """A fake_ethtool module's text without its sbctune imports (between the markers)."""
    module = importlib.import_module(f"sbctune.lab.{name}")
    text = Path(str(module.__file__)).read_text(encoding="utf-8")
    text, count = _OWN_IMPORTS.subn("", text)
    if count > 1 or (count == 0 and "from sbctune" in text):
        raise RuntimeError(f"{name}.py: its sbctune imports need @tables-start/@tables-end")
    return _FUTURE.sub("", text)


def script_text(python: str, state_path: Path, fallback: Path) -> str:
    """The stateful ethtool as one standalone script: the text of every fake_ethtool module
    (the lab user's python has no sbctune on its path), fake_ethtool's last, and the lab's
    paths filled in."""
    if "@tables-start" not in Path(fake_ethtool.__file__).read_text(encoding="utf-8"):
        raise RuntimeError("fake_ethtool.py lost its @tables-start/@tables-end markers")
    parts = [_module_text(name) for name in (*fake_ethtool.SCRIPT_MODULES, "fake_ethtool")]
    source = "from __future__ import annotations\n\n" + "\n\n".join(parts)
    source = source.replace('"@STATE@"', repr(str(state_path)))
    return f"#!{python}\n" + source.replace('"@FALLBACK@"', repr(str(fallback)))


def _pattern(options: list[str]) -> str:
    return "|".join(shlex.quote(option) for option in sorted(options))


def front_text(model: Path, fallback: Path, shown: Path, interfaces: list[str]) -> str:
    """The shell script installed as ``ethtool``: a read of a modelled interface prints what the
    model last wrote to ``shown`` (one `cat`, no Python start: the collector runs a dozen of
    these per inspect); a set, or a read with other arguments, runs the model; anything else
    (another interface) goes straight to the captures; ``ethtool IFACE`` (the live link) and
    ``-S`` (the lab's live counters) run the model each time."""
    reads: dict[str, list[str]] = {option: [option] for option in fake_ethtool_dispatch.SHOW}
    # run the model every time
    sets = [*fake_ethtool_dispatch.SET, "-K", *fake_ethtool_dispatch.LIVE]
    for alias, option in fake_ethtool_tables.ALIASES.items():
        reads.get(option, sets).append(alias)
    lines = [
        "#!/bin/sh",
        "# sbctune lab: the stateful ethtool's front (see sbctune.lab.ethtool_state).",
        f"model={shlex.quote(str(model))}",
        f"fallback={shlex.quote(str(fallback))}",
        f"shown={shlex.quote(str(shown))}",
        f'[ -z "${{{fake_ethtool.STATE_ENV}-}}${{{fake_ethtool.FALLBACK_ENV}-}}" ]'
        ' || exec "$model" "$@"',
        # `ethtool IFACE` (link settings): live, the model answers each time; so does
        # `ethtool --version`, the lab's ethtool's own (audit 42 row 3: the captures said
        # "command not found")
        f'[ "$#" -eq 1 ] && case "$1" in {_pattern([*interfaces, "--version"])}) '
        'exec "$model" "$@" ;; esac',
        # flags before the option (-I, --debug N, --json): the model finds the interface
        f'case "$1" in {_pattern(list(fake_ethtool_tables.FLAGS))}) exec "$model" "$@" ;; esac',
        'case "${2-}" in',
        f"  {_pattern(interfaces)}) ;;",
        '  *) exec "$fallback" "$@" ;;',
        "esac",
        'case "$1" in',
        *(
            f"  {_pattern(names)}) entry={shlex.quote(shown_name(option, ''))} ;;"
            for option, names in reads.items()
        ),
        f'  {_pattern(sets)}) exec "$model" "$@" ;;',
        '  *) exec "$model" "$@" ;;',  # -m, -t, -e ...: the table's answer, else the capture
        "esac",
        'answer="$shown/$entry$2"',
        '[ "$#" -eq 2 ] && [ -r "$answer" ] && read -r code < "$answer" || exec "$model" "$@"',
        f'[ "$code" = {fake_ethtool_shown.CAPTURE} ] && exec "$fallback" "$@"',
        # a driver's own answer the table cannot give (its register dump, its clock): the
        # model, which leaves a line the profile captured to the capture script
        f'[ "$code" = {fake_ethtool_shown.MODEL} ] && exec "$model" "$@"',
        'if [ "$code" = 0 ]; then { read -r _; cat; } < "$answer"',
        'else { read -r _; cat >&2; } < "$answer"; fi',
        'exit "$code"',
        "",
    ]
    return "\n".join(lines)


_COMPILE = "import py_compile, sys; py_compile.compile(sys.argv[1], sys.argv[2], doraise=True)"


def _precompile(python: str, model: Path) -> None:
    """Make ``model`` start its compiled code without ``site``: it runs for every ``ethtool
    IFACE`` and ``-S`` (the collector asks two per NIC), and compiling its 70 kB of source
    (~30 ms) and importing ``site`` (whatever the Pi image's .pth files import) were most of
    each call's time. The script stays as it was when the lab's python cannot compile it."""
    source = model.with_name(model.name + ".py")
    compiled = model.with_name(model.name + ".pyc")
    os.replace(model, source)
    done = subprocess.run(  # the lab's own python on the lab's own file
        [python, "-I", "-S", "-c", _COMPILE, str(source), str(compiled)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0 or not compiled.is_file():
        os.replace(source, model)
        return
    os.chmod(compiled, 0o644)
    # -I -S: the model is standard library only (tests/unit/test_lab_tuning_model.py runs it so).
    run = shlex.join([python, "-I", "-S", str(compiled)])
    header = f"# sbctune lab: the stateful ethtool, compiled ({source.name})"
    model.write_text(f'#!/bin/sh\n{header}\nexec {run} "$@"\n', encoding="utf-8")


def install(profile: LabProfile, lab_dir: Path, bin_dir: Path) -> bool:
    """Write the state and put the stateful ethtool in front of the capture script (its
    model at ``bin_dir/fake_ethtool.MODEL_FILE``; the lab's init writes its first answers).

    Returns False (nothing changed) when no interface of the profile names a driver.
    """
    state = build_state(profile)
    if not state["interfaces"]:
        return False
    state["bounce_links"] = True  # the lab's own interfaces, in its namespace
    for name, dev in state["interfaces"].items():
        store = {a: lab_dir / "link" / f"{name}.{a}" for a in ("speed", "duplex")}
        if dev.get("link") is not None and store["speed"].is_file():
            # the negotiated link (overlay.link_files): sysfs answers from it (sysfs_link), and
            # reads EINVAL while the NIC is set down, so the driver model reads the store
            dev["link"]["store"] = {a: str(p) for a, p in store.items()}
    state["link_down_seconds"] = profile.link_down_seconds  # a bounce's time down
    # a bounce drops the carrier, the interface stays up: the shaper on the host does it
    requests = lab_dir / carrier_drop.FOLDER
    requests.mkdir(mode=0o755, exist_ok=True)  # root writes (the sets are root's)
    state["carrier_requests"] = str(requests)
    folder = lab_dir / "ethtool"
    folder.mkdir(mode=0o755, exist_ok=True)
    if "irqs" in state:  # a closed NIC's vectors: /proc/irq/N stays (fake_ethtool_irqs)
        held = lab_dir / HELD_FILE
        held.write_text("", encoding="utf-8")
        state["irqs"]["held"] = str(held)
    state_path = lab_dir / STATE_FILE
    write_json(state_path, state, mode=0o644)  # root writes (ethtool -G needs root), all read
    captured = bin_dir / "ethtool"
    fallback = bin_dir / ".ethtool-captured"
    if captured.exists():
        os.replace(captured, fallback)
    else:
        fallback.write_text(fake_script("ethtool", []), encoding="utf-8")
    os.chmod(fallback, 0o755)  # noqa: S103 - the lab user runs it
    shown = folder / fake_ethtool_shown.SHOWN_DIR
    # Empty until the lab's init runs the model in the lab's namespaces (nsinit.first_answers):
    # answers read the NIC's live carrier, speed and MTU from sysfs, and this process sees the
    # host's (a host eth0 at speed -1 hid `-a`'s negotiated lines until the first set). Until
    # then the front finds no answer and runs the model, which reads the lab's.
    shown.mkdir(mode=0o755, exist_ok=True)
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    model = bin_dir / fake_ethtool.MODEL_FILE
    model.write_text(script_text(python, state_path, fallback), encoding="utf-8")
    _precompile(python, model)
    captured.write_text(
        front_text(model, fallback, shown, sorted(state["interfaces"])), encoding="utf-8"
    )
    for script in (model, captured):
        os.chmod(script, 0o755)  # noqa: S103 - the lab user runs it
    return True
