"""Raw outputs (from a live collection or a bundle) and everything parsed out of them.

Whatever subset is present is parsed; what is missing stays None ("unknown"). Every parser
warning is kept so the report can say which output could not be read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sbctune.inventory.parsers import dispatch, logged_outputs, paste_split, wext_errors
from sbctune.inventory.parsers.daemon_lines import daemon_line
from sbctune.inventory.parsers.dmesg import DmesgResult, parse_dmesg
from sbctune.inventory.parsers.dmesg_grep import grepped_address
from sbctune.inventory.parsers.ethtool import (
    EthtoolChannels,
    EthtoolDriverInfo,
    EthtoolFeatures,
    EthtoolRings,
    EthtoolSettings,
)
from sbctune.inventory.parsers.ethtool_eee import Eee
from sbctune.inventory.parsers.ethtool_stats import EthtoolStats
from sbctune.inventory.parsers.ethtool_tsinfo import TsInfo
from sbctune.inventory.parsers.lshw import LshwResult
from sbctune.inventory.parsers.lsmod import LoadedModules
from sbctune.inventory.parsers.lspci import LspciResult, PciDevice
from sbctune.inventory.parsers.lsusb import LsusbResult, UsbTree
from sbctune.inventory.parsers.netif import NetInterface, NetInterfaces
from sbctune.inventory.parsers.of_device import OfDevice
from sbctune.inventory.parsers.proc_net_bonding import BondStatus
from sbctune.inventory.parsers.procfs import Interrupts
from sbctune.inventory.parsers.system import (
    CpuInfo,
    DeviceTreeCompatible,
    DeviceTreeModel,
    OsRelease,
    Uname,
)
from sbctune.inventory.parsers.ubus_board import UbusBoard
from sbctune.inventory.parsers.udevadm_walk import UdevWalk
from sbctune.inventory.parsers.vcgencmd import Clock, Temperature, Throttled

# Symlinks under /sys/class/net are stored in bundles as files whose content is the target.
_DEVICE_LINK = re.compile(r"^/sys/class/net/([^/]+)/device$")
_DRIVER_LINK = re.compile(r"^/sys/class/net/([^/]+)/device/driver$")


@dataclass
class RawOutputs:
    """Command outputs by command line and file contents by path, as in a bundle."""

    commands: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    exit_codes: dict[str, int] = field(default_factory=dict)
    missing_tools: list[str] = field(default_factory=list)
    host: str | None = None

    def links(self) -> dict[str, tuple[str, str]]:
        """Interface → (device path, driver name) from the stored sysfs links."""
        found: dict[str, tuple[str, str]] = {}
        for path, target in self.files.items():
            if match := _DEVICE_LINK.match(path):
                device, driver = found.get(match.group(1), ("", ""))
                found[match.group(1)] = (target.strip(), driver)
            elif match := _DRIVER_LINK.match(path):
                device, driver = found.get(match.group(1), ("", ""))
                found[match.group(1)] = (device, target.strip().rsplit("/", 1)[-1])
        return found


def links_as_files(links: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    files = {}
    for iface, (device, driver) in links.items():
        files[f"/sys/class/net/{iface}/device"] = device
        if driver:
            files[f"/sys/class/net/{iface}/device/driver"] = driver
    return files


def _merge_pci(into: PciDevice, other: PciDevice) -> None:
    for name, value in vars(other).items():
        if name == "link_lines":  # two pastes of one device: each line that said its link
            into.link_lines += [line for line in value if line not in into.link_lines]
        elif value not in (None, [], False) and getattr(into, name) in (None, [], False):
            setattr(into, name, value)


def _merge_netif(into: NetInterface, other: NetInterface) -> None:
    for name, value in vars(other).items():
        if name == "link_type" and value == "ieee802.11" and into.link_type in _ETHER_TYPES:
            # ifconfig's "Link encap:Ethernet" is ARPHRD_ETHER, which a Wi-Fi interface has too
            # (net/mac80211/iface.c ieee80211_if_setup(): ether_setup()); iwconfig, iw and
            # nmcli say 802.11 of a radio only: the wireless kind wins whichever came first
            into.link_type = value
        elif name == "addresses":
            known = {(a.family, a.address) for a in into.addresses}
            into.addresses += [a for a in value if (a.family, a.address) not in known]
        elif value not in (None, []) and getattr(into, name) in (None, []):
            setattr(into, name, value)


_ETHER_TYPES = ("Ethernet", "ether", "ethernet", None)


@dataclass
class Parsed:
    """Everything the parsers could read, keyed the way the inventory needs it.

    Fields are filled by ``dispatch.PARSERS`` (its ``slot``); the ones that gather several
    outputs (lspci variants, ip/ifconfig, two dmesg pastes) have a merge rule in ``_MERGE``.
    """

    usb_tree: UsbTree | None = None
    lsusb: LsusbResult | None = None
    pci: list[PciDevice] = field(default_factory=list)
    lshw: LshwResult | None = None
    pci_drivers_shown: bool = False  # an lspci with -k or -v: a missing driver line means none
    # PCI addresses a kernel log paste was grepped by (`dmesg | grep 0000:01:00.0`: dmesg_grep)
    dmesg_greps: set[str] = field(default_factory=set)
    netifs: NetInterfaces = field(default_factory=NetInterfaces)
    ethtool: dict[str, EthtoolSettings] = field(default_factory=dict)
    ethtool_i: dict[str, EthtoolDriverInfo] = field(default_factory=dict)
    ethtool_k: dict[str, EthtoolFeatures] = field(default_factory=dict)
    ethtool_g: dict[str, EthtoolRings] = field(default_factory=dict)
    ethtool_l: dict[str, EthtoolChannels] = field(default_factory=dict)
    ethtool_s: dict[str, EthtoolStats] = field(default_factory=dict)
    ethtool_eee: dict[str, Eee] = field(default_factory=dict)  # ethtool --show-eee
    ethtool_t: dict[str, TsInfo] = field(default_factory=dict)  # ethtool -T (time stamping)
    bonds: dict[str, BondStatus] = field(default_factory=dict)  # /proc/net/bonding/BOND
    dmesg: DmesgResult | None = None
    dmesg_text: str = ""
    interrupts: Interrupts | None = None
    interrupts_text: str = ""
    cpuinfo: CpuInfo | None = None
    os_release: OsRelease | None = None
    uname: Uname | None = None
    ubus_board: UbusBoard | None = None  # OpenWrt's `ubus call system board`
    modules: LoadedModules | None = None  # lsmod: loaded as modules (built-in ones not listed)
    model: str | None = None
    compatible: list[str] = field(default_factory=list)
    throttled: Throttled | None = None
    temperature: Temperature | None = None
    clock: Clock | None = None
    sysfs: dict[str, str] = field(default_factory=dict)  # every /sys and /proc/sys file
    of_devices: dict[str, OfDevice] = field(default_factory=dict)  # by interface (of_device.py)
    links: dict[str, tuple[str, str]] = field(default_factory=dict)
    lsusb_tree_text: str = ""
    texts: dict[str, str] = field(default_factory=dict)  # parser key → its output(s), verbatim
    warnings: list[str] = field(default_factory=list)

    def sys_value(self, path: str) -> str | None:
        value = self.sysfs.get(path)
        return value.strip() if value is not None and value.strip() else None


def _merge_tree(parsed: Parsed, result: UsbTree, text: str) -> None:
    if parsed.usb_tree is None or len(result.nodes) > len(parsed.usb_tree.nodes):
        parsed.usb_tree = result
        parsed.lsusb_tree_text = text


# The merges look devices up by key in a dict made once per output: a scan of the known ones
# per new one made thousands of interfaces (a container host's veths) quadratic.


def _merge_lspci(parsed: Parsed, result: LspciResult, text: str) -> None:
    known: dict[str, PciDevice] = {}
    for device in parsed.pci:
        if device.address:
            known.setdefault(device.address, device)
    for device in result.devices:
        same = known.get(device.address) if device.address else None
        if same is None:
            parsed.pci.append(device)
            if device.address:
                known.setdefault(device.address, device)
        else:
            _merge_pci(same, device)


def _merge_netifs(parsed: Parsed, result: NetInterfaces, text: str) -> None:
    known: dict[str, NetInterface] = {}
    for netif in parsed.netifs.interfaces:
        known.setdefault(netif.name, netif)
    for netif in result.interfaces:
        same = known.get(netif.name)
        if same is None:
            parsed.netifs.interfaces.append(netif)
            known[netif.name] = netif
        else:
            _merge_netif(same, netif)


_MAX_DAEMON_LINES = 5000  # a second log's daemon lines read at most


def _merge_dmesg(parsed: Parsed, result: DmesgResult, text: str) -> None:
    """The longer system log is read; of a second one, the network daemons' lines are read
    too, after it (parsers/daemon_lines.py: systemd-networkd's "wlan0: Gained carrier" is in
    its journal only, never in the kernel's ring; the kernel lines a journal holds are the
    ring's again, so they stay out). corpus56's ZERO 3W: networkd's journal beside dmesg."""
    if parsed.dmesg is None:
        parsed.dmesg, parsed.dmesg_text = result, text
        return
    longer, other = (
        (text, parsed.dmesg_text)
        if result.lines > parsed.dmesg.lines
        else (parsed.dmesg_text, text)
    )
    daemons = [line for line in other.splitlines() if daemon_line(line) is not None]
    if not daemons:
        if longer is text:
            parsed.dmesg, parsed.dmesg_text = result, text
        return
    joined = longer.rstrip("\n") + "\n" + "\n".join(daemons[:_MAX_DAEMON_LINES]) + "\n"
    merged, _warnings = parse_dmesg(joined)
    parsed.dmesg, parsed.dmesg_text = merged, joined


def _merge_interrupts(parsed: Parsed, result: Interrupts, text: str) -> None:
    parsed.interrupts, parsed.interrupts_text = result, text


def _merge_model(parsed: Parsed, result: DeviceTreeModel, text: str) -> None:
    parsed.model = parsed.model or result.model


def _merge_compatible(parsed: Parsed, result: DeviceTreeCompatible, text: str) -> None:
    parsed.compatible = parsed.compatible or result.values


def _merge_lsusb(parsed: Parsed, result: LsusbResult, text: str) -> None:
    if parsed.lsusb is None:
        parsed.lsusb = LsusbResult()
    parsed.lsusb.devices += result.devices


def _merge_lshw(parsed: Parsed, result: LshwResult, text: str) -> None:
    if parsed.lshw is None:
        parsed.lshw = LshwResult()
    parsed.lshw.networks += result.networks
    parsed.lshw.usb += result.usb
    parsed.lshw.model = parsed.lshw.model or result.model
    parsed.lshw.kernel = parsed.lshw.kernel or result.kernel


def _merge_modules(parsed: Parsed, result: LoadedModules, text: str) -> None:
    """`lsmod` and /proc/modules of one Pi list the same modules: their union."""
    if parsed.modules is None:
        parsed.modules = LoadedModules(source=result.source)
    parsed.modules.modules.update(result.modules)


def _merge_udevadm(parsed: Parsed, result: UdevWalk, text: str) -> None:
    _merge_lshw(parsed, result.lshw, text)
    _merge_lsusb(parsed, result.lsusb, text)


def _merge_uname(parsed: Parsed, result: Uname, text: str) -> None:
    """`uname -a` and /proc/version of one system: the first one's fields, the other's where it
    has none (/proc/version names no host or machine)."""
    if parsed.uname is None:
        parsed.uname = result
        return
    for name in (
        "kernel_name",
        "hostname",
        "kernel_release",
        "kernel_version",
        "machine",
        "operating_system",
    ):
        if getattr(parsed.uname, name) is None:
            setattr(parsed.uname, name, getattr(result, name))


_MERGE: dict[str, Callable[[Parsed, Any, str], None]] = {
    "uname": _merge_uname,
    "udevadm": _merge_udevadm,
    "lshw": _merge_lshw,
    "lsusb": _merge_lsusb,
    "usb_tree": _merge_tree,
    "pci": _merge_lspci,
    "netifs": _merge_netifs,
    "dmesg": _merge_dmesg,
    "interrupts": _merge_interrupts,
    "model": _merge_model,
    "compatible": _merge_compatible,
    "modules": _merge_modules,
}


def _take(parsed: Parsed, key: str | None, iface: str | None, result: Any, text: str) -> None:
    spec = dispatch.PARSERS.get(key or "")
    if spec is None or spec.slot is None or not isinstance(result, spec.result):
        return
    before = parsed.texts.get(key or "")
    # the first text as it is (a 100 000-line dmesg is not copied twice to join it to "")
    parsed.texts[key or ""] = (before + "\n" + text if before else text).strip("\n")
    if spec.slot in _MERGE:
        _MERGE[spec.slot](parsed, result, text)
    elif spec.per_interface:
        name = iface or getattr(result, "interface", None)
        if name:
            getattr(parsed, spec.slot)[name] = result
        elif isinstance(result, EthtoolDriverInfo) and result.bus_info:
            # A report tool's `ethtool -i wlan0` printed without its command: the device its
            # bus-info names (listing_sightings.from_ethtool keys it by that alone).
            parsed.ethtool_i.setdefault("", result)
    else:
        setattr(parsed, spec.slot, result)


def _failed_run(text: str, code: int | None) -> bool:
    """A command that did not run at all (not found, not permitted) has nothing to parse."""
    # Only the start of a short first line: the pattern backtracks quadratically over a long
    # run without spaces (64 KiB of NULs took 31 s).
    head = text.lstrip()[:256].partition("\n")[0]
    return code == 127 or bool(re.match(r"^\S*:?\s*\S+: (command )?not found", head))


def _parts(line: str, text: str) -> list[tuple[str, str]]:
    """The outputs one stored text holds (parsers/paste_split.py): itself, or, for a report
    tool's run, a chained command line or a paste with more prompts in it, each part."""
    key = dispatch.resolve_command(line)[0]
    if key == "dmesg":  # a system log: with the outputs a script logged through it, and
        # wireless-tools' errors pasted beside the driver's line (parsers/wext_errors.py)
        parts = paste_split.split_known(text, line) + logged_outputs.logged_parts(text)
        return parts + wext_errors.wext_parts(text)
    if key is not None:
        return paste_split.split_known(text, line)
    return paste_split.split_paste(text, None) or [(line, text)]


def parse_all(raw: RawOutputs) -> Parsed:
    parsed = Parsed(links=raw.links())
    for stored, whole in raw.commands.items():
        if _failed_run(whole, raw.exit_codes.get(stored)):
            continue
        for line, text in _parts(stored, whole):
            out = dispatch.parse_command(line, text)
            if out.parser is None:
                continue  # kept in the bundle, but nothing the inventory reads
            _take(parsed, out.parser, out.interface, out.result, text)
            # Named by the command line that was run: `ethtool -g eth0`, not `ethtool -g`.
            parsed.warnings += [f"“{line}”: {w.message}" for w in out.warnings]
            if out.parser == "lspci" and re.search(r"(^|\s)-[A-Za-z]*[kv]", line):
                parsed.pci_drivers_shown = True
            elif out.parser == "dmesg" and (address := grepped_address(text)) is not None:
                parsed.dmesg_greps.add(address)
    for path, text in raw.files.items():
        if path.startswith(("/sys/", "/proc/sys/")) and not path.endswith("/model"):
            parsed.sysfs[path] = text
            continue
        out = dispatch.parse_file(path, text)
        if out.parser is None:
            continue
        _take(parsed, out.parser, out.interface, out.result, text)
        parsed.warnings += [str(w) for w in out.warnings]
    return parsed
