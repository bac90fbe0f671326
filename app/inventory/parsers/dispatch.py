"""Map a command line as written (or a file path) to the right parser."""

from __future__ import annotations

import re
import shlex
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from . import (
    dmesg,
    ethtool,
    ethtool_eee,
    ethtool_json,
    ethtool_stats,
    ethtool_tsinfo,
    hwinfo,
    iperf,
    iwinfo,
    lshw,
    lshw_structured,
    lsmod,
    lspci,
    lspci_tree,
    lsusb,
    mii_tool,
    mmcli,
    netif,
    networkctl_list,
    nixos_facter,
    nmcli_overview,
    of_device,
    proc_net_bonding,
    proc_net_dev,
    procfs,
    report_tools,
    sysfs,
    system,
    ubus_board,
    ubus_device,
    udevadm_walk,
    vcgencmd,
    wireless_tools,
    xsos,
)
from .command_echo import echoed, uname_key, unglued
from .common import ParseWarning, to_text
from .glued_fence import unglue_fences
from .mail_quote import join_quoted_log, unquote


@dataclass
class ParsedOutput:
    parser: str | None  # e.g. "lsusb -t", "ethtool -i"; None when nothing fits
    result: object | None
    warnings: list[ParseWarning] = field(default_factory=list)
    interface: str | None = None  # for per-interface commands (ethtool, sysfs)


T = TypeVar("T")


@dataclass(frozen=True)
class Spec(Generic[T]):
    """One command or file the inventory reads: its parser, the type the parser returns, and
    the field of the inventory's ``Parsed`` record it fills (None: kept, not read).

    Adding a command is one edit here (plus its field on ``Parsed`` when the inventory uses
    it); ``inventory.raw`` stores every result by this table, checked against ``result``.
    """

    parse: Callable[[str], tuple[T, list[ParseWarning]]]
    result: type[T]
    slot: str | None = None
    per_interface: bool = False  # stored by interface name (ethtool IFACE ...)


PARSERS: dict[str, Spec[Any]] = {
    "lsusb": Spec(lsusb.parse_lsusb, lsusb.LsusbResult, "lsusb"),
    "lsusb -t": Spec(lsusb.parse_lsusb_tree, lsusb.UsbTree, "usb_tree"),
    "usb-devices": Spec(lsusb.parse_usb_devices, lsusb.LsusbResult, "lsusb"),
    "lspci": Spec(lspci.parse_lspci, lspci.LspciResult, "pci"),
    "lspci -t": Spec(lspci_tree.parse_lspci_tree, lspci.LspciResult, "pci"),
    "lshw": Spec(lshw.parse_lshw, lshw.LshwResult, "lshw"),
    # lshw's structured formats, read line by line as pasted excerpts (parsers/lshw_structured)
    "lshw -json": Spec(lshw_structured.parse_lshw_json, lshw.LshwResult, "lshw"),
    "lshw -xml": Spec(lshw_structured.parse_lshw_xml, lshw.LshwResult, "lshw"),
    "hwinfo": Spec(hwinfo.parse_hwinfo, lshw.LshwResult, "lshw"),
    "iwinfo": Spec(iwinfo.parse_iwinfo, lshw.LshwResult, "lshw"),
    "networkctl status": Spec(report_tools.parse_networkctl_status, lshw.LshwResult, "lshw"),
    "networkctl": Spec(networkctl_list.parse_networkctl_list, netif.NetInterfaces, "netifs"),
    "udevadm info": Spec(udevadm_walk.parse_udevadm_walk, udevadm_walk.UdevWalk, "udevadm"),
    "inxi": Spec(report_tools.parse_inxi_network, lshw.LshwResult, "lshw"),
    # NixOS's hardware report: hwinfo's records as JSON (parsers/nixos_facter.py)
    "nixos-facter": Spec(nixos_facter.parse_nixos_facter, lshw.LshwResult, "lshw"),
    # xsos's summary of a system or sosreport: its ETHTOOL section (parsers/xsos.py)
    "xsos": Spec(xsos.parse_xsos, lshw.LshwResult, "lshw"),
    "mii-tool": Spec(mii_tool.parse_mii_tool, lshw.LshwResult, "lshw"),
    "mmcli -m": Spec(mmcli.parse_mmcli, lshw.LshwResult, "lshw"),  # ModemManager's modem block
    "ubus network.device": Spec(ubus_device.parse_ubus_device_status, lshw.LshwResult, "lshw"),
    "ubus system board": Spec(
        ubus_board.parse_ubus_system_board, ubus_board.UbusBoard, "ubus_board"
    ),
    "ethtool": Spec(ethtool_json.parse_ethtool_any, ethtool.EthtoolSettings, "ethtool", True),
    "ethtool -i": Spec(ethtool.parse_ethtool_driver, ethtool.EthtoolDriverInfo, "ethtool_i", True),
    "ethtool -k": Spec(ethtool.parse_ethtool_features, ethtool.EthtoolFeatures, "ethtool_k", True),
    "ethtool -g": Spec(ethtool.parse_ethtool_rings, ethtool.EthtoolRings, "ethtool_g", True),
    "ethtool -l": Spec(ethtool.parse_ethtool_channels, ethtool.EthtoolChannels, "ethtool_l", True),
    "ethtool -c": Spec(ethtool.parse_ethtool_coalesce, ethtool.EthtoolCoalesce),
    "ethtool -S": Spec(
        ethtool_stats.parse_ethtool_stats, ethtool_stats.EthtoolStats, "ethtool_s", True
    ),
    "ethtool --show-eee": Spec(ethtool_eee.parse_show_eee, ethtool_eee.Eee, "ethtool_eee", True),
    "ethtool -T": Spec(
        ethtool_tsinfo.parse_ethtool_tsinfo, ethtool_tsinfo.TsInfo, "ethtool_t", True
    ),
    "ip -j": Spec(netif.parse_ip_json, netif.NetInterfaces, "netifs"),
    "ip": Spec(netif.parse_ip_text, netif.NetInterfaces, "netifs"),
    "ifconfig": Spec(netif.parse_ifconfig, netif.NetInterfaces, "netifs"),
    "dmesg": Spec(dmesg.parse_dmesg, dmesg.DmesgResult, "dmesg"),
    "iwconfig": Spec(wireless_tools.parse_iwconfig, netif.NetInterfaces, "netifs"),
    "iw dev": Spec(wireless_tools.parse_iw_dev, netif.NetInterfaces, "netifs"),
    "/proc/net/wireless": Spec(
        wireless_tools.parse_proc_net_wireless, netif.NetInterfaces, "netifs"
    ),
    "/proc/net/dev": Spec(proc_net_dev.parse_proc_net_dev, netif.NetInterfaces, "netifs"),
    # a bond's ports with each port's own link (parsers/proc_net_bonding.py), by the bond's name
    "/proc/net/bonding": Spec(
        proc_net_bonding.parse_proc_net_bonding, proc_net_bonding.BondStatus, "bonds", True
    ),
    "iw link": Spec(wireless_tools.parse_iw_link, netif.NetInterfaces, "netifs"),
    "iw station": Spec(wireless_tools.parse_iw_station, netif.NetInterfaces, "netifs"),
    "nmcli device": Spec(wireless_tools.parse_nmcli_device, netif.NetInterfaces, "netifs"),
    "nmcli": Spec(nmcli_overview.parse_nmcli_overview, netif.NetInterfaces, "netifs"),
    "uname -a": Spec(system.parse_uname, system.Uname, "uname"),
    "/proc/version": Spec(system.parse_proc_version, system.Uname, "uname"),
    "lsmod": Spec(lsmod.parse_lsmod, lsmod.LoadedModules, "modules"),
    "/proc/modules": Spec(lsmod.parse_proc_modules, lsmod.LoadedModules, "modules"),
    "vcgencmd get_throttled": Spec(vcgencmd.parse_get_throttled, vcgencmd.Throttled, "throttled"),
    "vcgencmd measure_temp": Spec(vcgencmd.parse_measure_temp, vcgencmd.Temperature, "temperature"),
    "vcgencmd measure_clock": Spec(vcgencmd.parse_measure_clock, vcgencmd.Clock, "clock"),
    "iperf3 --version": Spec(iperf.parse_iperf3_version, iperf.Iperf3Version),
    "/proc/interrupts": Spec(procfs.parse_interrupts, procfs.Interrupts, "interrupts"),
    "/proc/softirqs": Spec(procfs.parse_softirqs, procfs.Softirqs),
    "/proc/stat": Spec(procfs.parse_proc_stat, procfs.ProcStat),
    "/proc/cpuinfo": Spec(system.parse_cpuinfo, system.CpuInfo, "cpuinfo"),
    "/etc/os-release": Spec(system.parse_os_release, system.OsRelease, "os_release"),
    "/proc/device-tree/model": Spec(
        system.parse_device_tree_model, system.DeviceTreeModel, "model"
    ),
    # a device-tree device's modalias, uevent or of_node/compatible (parsers/of_device.py)
    "of device": Spec(of_device.parse_of_device, of_device.OfDevice, "of_devices", True),
    "/proc/device-tree/compatible": Spec(
        system.parse_device_tree_compatible, system.DeviceTreeCompatible, "compatible"
    ),
}
_PARSERS = PARSERS  # the old name

_ETHTOOL_OPTS = {
    "-i": "ethtool -i", "--driver": "ethtool -i",
    "-k": "ethtool -k", "--show-features": "ethtool -k", "--show-offload": "ethtool -k",
    "-g": "ethtool -g", "--show-ring": "ethtool -g",
    "-l": "ethtool -l", "--show-channels": "ethtool -l",
    "-c": "ethtool -c", "--show-coalesce": "ethtool -c",
    "-S": "ethtool -S", "--statistics": "ethtool -S",
    "--show-eee": "ethtool --show-eee",
    "-T": "ethtool -T", "--show-time-stamping": "ethtool -T",
}  # fmt: skip
# linuxptp's programs (print.c: "ptp4l[%ld.%03ld]: %s" on stdout with -m, syslog otherwise)
_LINUXPTP = {"ptp4l", "phc2sys", "ts2phc", "timemaster", "phc_ctl"}
_WRAPPERS = {"sudo", "doas", "command", "exec", "env", "nice", "timeout", "busybox"}


def _tokens(cmdline: str) -> list[str]:
    first = cmdline.split("|", 1)[0].strip()  # "dmesg | grep eth" -> "dmesg"
    first = re.sub(r"^\s*(?:\S+@\S+\s*\S*\s*[$#]|[$#])\s+", "", first)  # pasted prompt
    try:
        toks = shlex.split(first)
    except ValueError:
        toks = first.split()
    # drop sudo and friends with their options (sudo -n, sudo -E, timeout 5 ...)
    while toks:
        head = toks[0].rsplit("/", 1)[-1]
        if head in _WRAPPERS or head.endswith("sudo"):  # smart_sudo, gksudo ...
            toks = toks[1:]
            while toks and (toks[0].startswith("-") or re.fullmatch(r"\d+[smh]?", toks[0])):
                toks = toks[1:]
            continue
        if re.fullmatch(r"[A-Za-z_]\w*=\S*", toks[0]):  # LC_ALL=C lspci
            toks = toks[1:]
            continue
        if head == "adb":  # Android: `adb [-s SERIAL] shell dmesg`, `adb logcat -b kernel`
            toks = _adb_inner(toks[1:])
            continue
        if head == "su" and "-c" in toks[1:]:  # `su -c dmesg`, `su -c "dmesg | grep eth"`
            inner = toks[toks.index("-c") + 1 : toks.index("-c") + 2]
            toks = inner[0].strip("\"'").split("|", 1)[0].split() if inner else []
            continue
        break
    if toks:
        toks[0] = toks[0].rsplit("/", 1)[-1]  # /usr/sbin/ethtool -> ethtool
    return toks


def _adb_inner(args: list[str]) -> list[str]:
    """The command adb runs on the device: its own options (`-s SERIAL`, `-t ID`, `-d`, `-e`)
    and `shell` dropped (`adb logcat` is the device's logcat)."""
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in ("-s", "-t", "-H", "-P", "-L") else args[1:]
    return args[1:] if args[:1] == ["shell"] else args


def _short_flags(toks: list[str]) -> set[str]:
    flags: set[str] = set()
    for t in toks:
        if t.startswith("--"):
            flags.add(t)
        elif t.startswith("-") and len(t) > 1:
            flags.update(t[1:])
    return flags


def resolve_command(cmdline: str) -> tuple[str | None, str | None]:
    """(parser key, interface) for a command line, or (None, None) when unsupported."""
    toks = _tokens(cmdline)
    if not toks:
        return None, None
    cmd, args = toks[0], toks[1:]
    if cmd == "lsusb":
        flags = _short_flags(args)
        if "t" in flags or "--tree" in flags:
            return "lsusb -t", None
        return "lsusb", None  # -v too: its device lines, bcdUSB and negotiated speed
    if cmd == "lspci":
        flags = _short_flags(args)
        if "t" in flags and "m" not in flags:
            return "lspci -t", None  # the bus tree (parsers/lspci_tree.py)
        if "x" in flags or "--version" in flags or "m" in flags or "t" in flags:
            return (None, None) if ("m" in flags or "t" in flags) else ("lspci", None)
        return "lspci", None
    if cmd == "ethtool":
        key = "ethtool"
        iface = None
        as_json = False  # the settings as JSON (ethtool >= 5.10): read; other JSON outputs not
        for a in args:
            if a in _ETHTOOL_OPTS:
                key = _ETHTOOL_OPTS[a]
            elif a in ("--json", "-j"):
                as_json = True
            elif a.startswith("-"):
                return None, None  # -S, -m, -a ...: not parsed
            elif iface is None:
                iface = a
        return (None, None) if as_json and key != "ethtool" else (key, iface)
    if cmd == "ip":
        json_mode = any(
            a in {"-j", "-json", "--json"} or re.fullmatch(r"-[a-z]*j[a-z]*", a) for a in args
        )
        objects = [a for a in args if not a.startswith("-")]
        obj = objects[0] if objects else ""
        if obj and not any(o.startswith(obj) for o in ("address", "addr", "link")):
            return None, None
        if json_mode:
            return "ip -j", None
        # `ip -s link show eth0`, `ip addr show dev eth0`: the interface named
        named = objects[2:3] if objects[1:2] and objects[1] in _IP_SHOW else []
        named = objects[objects.index("dev") + 1 :][:1] if "dev" in objects else named
        return "ip", (named[0] if named else None)
    if cmd == "lshw":
        if any(a in {"-json", "-xml"} for a in args):
            return ("lshw -json" if "-json" in args else "lshw -xml"), None
        if any(a in {"-short", "-businfo", "-html"} for a in args):
            return None, None  # other formats than the tree of "key: value" lines
        return "lshw", None  # lshw, lshw -C network, lshw -class network
    if cmd == "usb-devices":
        return "usb-devices", None
    if cmd == "networkctl":
        rest = [a for a in args if not a.startswith("-")]
        if rest[:1] == ["status"]:
            return "networkctl status", None
        return ("networkctl", None) if rest in ([], ["list"]) else (None, None)
    if (
        cmd == "udevadm"
        and args[:1] == ["info"]
        and any(
            a in {"-a", "--attribute-walk"} or re.fullmatch(r"-[a-z]*a[a-z]*", a) for a in args[1:]
        )
    ):
        return "udevadm info", None  # the attribute walk, not `udevadm info -q property`
    if cmd in {"inxi", "pinxi"}:
        return "inxi", None  # its Network section (-N, -n, -F, -b ...)
    if cmd == "nixos-facter":
        return "nixos-facter", None  # its report on stdout, or the report.json it wrote
    if cmd == "xsos":
        return "xsos", None  # `xsos -lei`, `xsos -a SOSREPORT`: the ETHTOOL section is read
    if cmd == "hwinfo":
        return "hwinfo", None  # --netcard, --network, --usb, --pci, plain: the same blocks
    if cmd == "iwinfo":  # `iwinfo`, `iwinfo wlan0 info` (not scan, txpowerlist, freqlist ...)
        rest = [a for a in args if not a.startswith("-")]
        return ("iwinfo", None) if rest in ([], ["info"]) or rest[1:] == ["info"] else (None, None)
    if cmd == "ifconfig":
        return "ifconfig", None
    if cmd == "ubus" and args == ["call", "network.device", "status"]:
        return "ubus network.device", None  # all devices; one named device prints no names
    if cmd == "ubus" and args == ["call", "system", "board"]:
        return "ubus system board", None  # procd's board: kernel, SoC sentence, model
    if cmd == "mii-tool":
        return ("mii-tool", None) if not (set(args) & _MII_TOOL_ACTIONS) else (None, None)
    if cmd == "iwconfig":
        return "iwconfig", None
    if cmd == "mmcli" and any(a in {"-m", "--modem"} or a.startswith("--modem=") for a in args):
        # a modem's block (`mmcli -m 0`, `-m any`); not its actions (--enable, --simple-connect)
        acts = [a for a in args if a.startswith("--") and not a.startswith("--modem")]
        return ("mmcli -m", None) if not acts else (None, None)
    if cmd == "iw" and (
        (args[:1] == ["dev"] and (len(args) == 1 or args[2:] == ["info"]))
        or (len(args) == 2 and args[1] == "info" and args[0] not in {"phy", "dev", "reg"})
    ):
        return "iw dev", None  # `iw dev`, `iw dev wlan0 info`, `iw wlan0 info`
    if cmd == "iw" and ((args[2:] == ["link"] and args[0] == "dev") or args[1:] == ["link"]):
        return "iw link", None  # `iw dev wlan0 link`, `iw wlan0 link`
    if cmd == "iw" and _iw_station_args(args):
        return "iw station", None  # `iw dev wlan0 station dump`, `iw wlan0 station get MAC`
    if cmd == "nmcli" and not [a for a in args if not a.startswith("-")]:
        return "nmcli", None  # the overview of every device (general.c do_overview())
    if cmd == "nmcli" and args[:1] and args[0] in {"d", "dev", "device"}:
        rest = [a for a in args[1:] if not a.startswith("-")]
        if not rest or rest[0] in {"status", "s", "show", "sh"}:
            return "nmcli device", None
        return None, None
    if cmd in {"dmesg", "journalctl", "logread"}:  # logread: BusyBox/OpenWrt's syslog ring
        return "dmesg", None
    if cmd == "logcat":  # Android's log: logd copies the kernel's lines into it (LogKlog.cpp)
        return "dmesg", None
    if cmd in _LINUXPTP:  # its log on stdout (-m): "ptp4l[923.757]: port 1 (eth0): ..."
        return "dmesg", None
    if cmd == "systemctl" and args[:1] == ["status"]:  # the unit's status, its journal's tail
        return "dmesg", None
    if cmd == "uname":
        return uname_key(args), None
    if cmd == "lsmod":
        return "lsmod", None
    if cmd == "vcgencmd" and args:
        if args[0] == "get_throttled":
            return "vcgencmd get_throttled", None
        if args[0] == "measure_temp":
            return "vcgencmd measure_temp", None
        if args[0] == "measure_clock":
            return "vcgencmd measure_clock", None
        return None, None
    if cmd in {"iperf3", "iperf"} and any(a in {"--version", "-v"} for a in args):
        return "iperf3 --version", None
    if cmd in {"cat", "head", "tail", "less", "more", "tr", "grep", "egrep"}:
        paths = [a for a in args if a.startswith("/")]
        if paths:
            return resolve_file(paths[0])
    return None, None


def resolve_file(path: str) -> tuple[str | None, str | None]:
    """(parser key, interface) for a file path."""
    p = path.strip().rstrip("/")
    if p in _PARSERS and p.startswith("/"):
        return p, None
    if p in {"/usr/lib/os-release", "/etc/lsb-release"}:
        return "/etc/os-release", None
    for leaf in ("model", "compatible"):
        if p in {f"/sys/firmware/devicetree/base/{leaf}", f"/proc/device-tree/{leaf}"}:
            return f"/proc/device-tree/{leaf}", None
    if re.fullmatch(r"/var/log/(?:syslog|kern\.log|messages|dmesg)(?:\.\d+)?", p):
        return "dmesg", None  # the kernel's lines as syslog/rsyslog keep them
    if p.startswith("/proc/net/bonding/") and p.count("/") == 4:
        return "/proc/net/bonding", p.rsplit("/", 1)[1]  # the bond's name: a file per bond
    if p == "/sys/kernel/debug/usb/devices":
        return "usb-devices", None  # the same T:/D:/P:/I: blocks usb-devices prints
    m = re.fullmatch(r"/sys/class/net/([^/]+)/device/(?:modalias|uevent|of_node/compatible)", p)
    if m:
        return "of device", m.group(1)
    m = re.fullmatch(r"/sys/class/net/([^/]+)/(\w+)", p)
    if m:
        return f"sysfs net {m.group(2)}", m.group(1)
    m = re.fullmatch(r"/sys/bus/usb/devices/([^/]+)/speed", p)
    if m:
        return "sysfs usb speed", m.group(1)
    return None, None


# mii-tool options that change the PHY instead of showing it (-V prints the version)
_MII_TOOL_ACTIONS = {"-r", "-R", "-A", "-F", "-V", "--restart", "--reset", "--version"}
_IP_SHOW = {"show", "sh", "s", "list", "ls", "l", "lst"}


def _run(key: str | None, iface: str | None, text: object, what: str) -> ParsedOutput:
    if key is None:
        return ParsedOutput(None, None, [ParseWarning(what, "no parser for this output")], iface)
    if key.startswith("sysfs net "):
        attr = key.removeprefix("sysfs net ")
        result, warnings = sysfs.parse_sysfs_net(attr, to_text(text))
        return ParsedOutput(key, result, warnings, iface)
    if key == "sysfs usb speed":
        result, warnings = sysfs.parse_usb_speed(to_text(text))
        return ParsedOutput(key, result, warnings, iface)
    if key.startswith("uname -") and key != "uname -a":  # `uname -r -m`: the fields it asks
        fields, fields_warnings = system.parse_uname_fields(
            key.removeprefix("uname -"), to_text(text)
        )
        return ParsedOutput("uname -a", fields, fields_warnings, iface)
    body, quoted = unquote(to_text(text))  # a paste quoted in a reply: "> > output"
    body = unglue_fences(body)  # "```[ 2301.3] usb 1-1.1: ...": the fence typed on the line
    body = echoed(what, body)  # "> ip -s link show can0" typed above its output
    if key == "ip" and iface:
        # `ip -s link show eth0`, unquoted as any other output but not dedented: its counters
        # may stand alone, indented as ip prints them under the interface's line
        named, named_warnings = netif.parse_ip_text(body, iface)
        return ParsedOutput(key, named, named_warnings, iface)
    if quoted and key == "dmesg":
        body = join_quoted_log(body)
    elif key != "dmesg" and body[:1] in (" ", "\t"):
        # an output indented as a whole (a Markdown code block by indentation, a tabbed mail):
        # its common indentation is not the tool's (a kernel log is read at any indentation)
        body = textwrap.dedent(body)
    parsed, found_warnings = PARSERS[key].parse(body)
    return ParsedOutput(key, parsed, found_warnings, iface)


def parse_command(cmdline: str, text: object) -> ParsedOutput:
    """Parse ``text`` as the output of ``cmdline`` (written as in a bundle manifest)."""
    try:
        key, iface = resolve_command(cmdline)
    except Exception:  # pragma: no cover - defensive
        key, iface = None, None
    return _run(key, iface, unglued(cmdline, to_text(text)), cmdline.strip() or "command")


def parse_file(path: str, text: object) -> ParsedOutput:
    """Parse ``text`` as the content of the file at ``path``."""
    try:
        key, iface = resolve_file(path)
    except Exception:  # pragma: no cover - defensive
        key, iface = None, None
    return _run(key, iface, text, path.strip() or "file")


def _iw_station_args(args: list[str]) -> bool:
    """`[dev] IFACE station dump|get MAC` (iw's station.c commands that print stations)."""
    rest = args[2:] if args[:1] == ["dev"] else args[1:]
    return rest[:1] == ["station"] and (
        rest[1:] == ["dump"] or (rest[1:2] == ["get"] and len(rest) == 3)
    )
