"""Interface lists people paste from the Wi-Fi and network-manager tools: ``iwconfig``
(wireless-tools), ``iw dev`` (iw) and ``nmcli device`` / ``nmcli device show``
(NetworkManager). Each names interfaces and says which are Wi-Fi; they become
``NetInterface`` records (``link_type`` ``ieee802.11`` for Wi-Fi, ``ether`` for Ethernet,
the tool's own word for anything else, which the inventory then leaves out).

Formats, from the tools' sources: wireless-tools ``iwconfig.c`` (``print_info``: the name
padded to 10 columns, then ``IEEE 802.11...`` or ``no wireless extensions.``); iw
``interface.c`` (``phy#N`` then tab-indented ``Interface NAME`` / ``addr`` / ``type``);
NetworkManager's ``nmcli`` device list (``DEVICE TYPE STATE CONNECTION`` columns) and
``device show`` (``GENERAL.DEVICE:`` key/value lines)."""

from __future__ import annotations

import re

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines
from .lazy_pattern import later
from .netif import NetInterface, NetInterfaces
from .tool_labels import nmcli_state

_IFNAME = r"[A-Za-z0-9_.:@-]{1,15}"
_IWCONFIG_NONE = later(rf"^({_IFNAME})\s+no wireless extensions\.?\s*$")
_IWCONFIG_WIFI = later(rf"^({_IFNAME})\s+(?:IEEE\s*802\.11\S*|unassociated)\b")
_IWCONFIG_MORE = later(r"^\s+\S")
_MAC = later(r"(?i)\b([0-9a-f]{2}(?::[0-9a-f]{2}){5})\b")
# iwconfig.c's errors of a request: "Error for wireless request \"Set Mode\" (8B06) :" then
# "    SET failed on device wlan0 ; Device or resource busy." (strerror of the ioctl's errno)
_WEXT_REQUEST = later(r'^\s*Error for wireless request "[^"]{1,40}" \([0-9A-Fa-f]{1,8}\) :\s*$')
_WEXT_FAILED = later(rf"^\s*(?:SET|GET) failed on device ({_IFNAME}) ; (.{{1,80}}?)\.?\s*$")
# net/wireless/wext-core.c wireless_process_ioctl() (6.1, 6.12): -ENODEV when no device has the
# name, -EOPNOTSUPP when it has no wireless handler (a wired NIC), and wext_permission_check()'s
# -EPERM comes first; any other errno is the Wi-Fi driver's own answer to the request
_WEXT_NOT_WIFI = frozenset({"No such device", "Operation not supported", "Operation not permitted"})

# nmcli's TYPE column and GENERAL.TYPE: the ones that are a NIC's kind, in ip's words
_NMCLI_KINDS = {"wifi": "ieee802.11", "ethernet": "ether", "802-3-ethernet": "ether"}
_NMCLI_HEAD = later(r"^\s*DEVICE\s+TYPE\s+STATE\b")
# the state is read from the rest of the row by tool_labels.nmcli_state(): under another locale
# it is a translation of one word or several ("nicht verfügbar", "connecté (en externe)")
_NMCLI_ROW = later(rf"^\s*({_IFNAME})\s+([a-z0-9-]+)\s+(\S.*)$")
_NMCLI_KV = later(r"^\s*GENERAL\.(DEVICE|TYPE|HWADDR|STATE):\s*(.*?)\s*$")


def parse_iwconfig(text: str) -> Parsed[NetInterfaces]:
    """``iwconfig``: Wi-Fi interfaces and those with "no wireless extensions"."""
    return guarded("iwconfig", _parse_iwconfig, text, NetInterfaces)


def _parse_iwconfig(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    bad = 0
    cur: NetInterface | None = None
    for line in split_lines(text):
        if is_noise(line):
            continue
        if m := _IWCONFIG_NONE.match(line):
            # wireless-tools says only that it is not Wi-Fi: wired, loopback or virtual
            cur = None
            if m.group(1) != "lo":
                res.interfaces.append(NetInterface(name=m.group(1), link_type="ether"))
            continue
        if m := _IWCONFIG_WIFI.match(line):
            cur = NetInterface(name=m.group(1), link_type="ieee802.11")
            res.interfaces.append(cur)
            continue
        if cur is not None and _IWCONFIG_MORE.match(line):
            continue  # Mode:, Access Point:, Bit Rate=, Link Quality= ... of the interface
        if _WEXT_REQUEST.match(line):
            continue  # the request that failed; the next line names the device
        if m := _WEXT_FAILED.match(line):
            cur = None
            known = {n.name for n in res.interfaces}
            if m.group(2).strip() not in _WEXT_NOT_WIFI and m.group(1) not in known:
                res.interfaces.append(NetInterface(name=m.group(1), link_type="ieee802.11"))
            continue
        bad += 1
    return res, finish("iwconfig", text, len(res.interfaces), bad)


def parse_iw_dev(text: str) -> Parsed[NetInterfaces]:
    """``iw dev``: every ``Interface NAME`` under a ``phy#N`` is a Wi-Fi interface."""
    return guarded("iw dev", _parse_iw_dev, text, NetInterfaces)


def _parse_iw_dev(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    bad = 0
    cur: NetInterface | None = None
    for line in split_lines(text):
        if is_noise(line):
            continue
        stripped = line.strip()
        if re.match(r"^phy#\d+$", stripped):
            cur = None
            continue
        if m := re.match(rf"^Interface\s+({_IFNAME})$", stripped):
            cur = NetInterface(name=m.group(1), link_type="ieee802.11")
            res.interfaces.append(cur)
            continue
        if m := _IW_STATION.match(stripped):
            # `iw dev IFACE station dump` pasted with (or as) iw's interface list
            cur = _station_iface(res, m.group(1))
            continue
        if cur is not None and (m := re.match(r"^addr\s+(\S+)$", stripped)):
            cur.mac = m.group(1).lower() if _MAC.fullmatch(m.group(1)) else None
            continue
        if cur is not None and line[:1].isspace():
            continue  # ifindex, wdev, ssid, type, channel, txpower, multicast TXQ ...
        bad += 1
    return res, finish("iw dev", text, len(res.interfaces), bad)


_IW_LINK = later(rf"^Connected to ([0-9a-fA-F:]{{17}}) \(on ({_IFNAME})\)$")


def parse_iw_link(text: str) -> Parsed[NetInterfaces]:
    """``iw dev IFACE link`` (iw's link.c print_link_sta()): ``Connected to BSSID (on IFACE)``
    then the SSID, frequency, signal and bitrates of the association: a Wi-Fi interface with a
    link. ``Not connected.`` names no interface (the command line does: nothing is said)."""
    return guarded("iw link", _parse_iw_link, text, NetInterfaces)


def _parse_iw_link(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    for line in split_lines(text):
        if (m := _IW_LINK.match(line.strip())) and len(res.interfaces) < 64:
            netif = NetInterface(name=m.group(2), link_type="ieee802.11")
            netif.operstate, netif.flags = "UP", ["UP", "LOWER_UP"]
            res.interfaces.append(netif)
    return res, finish("iw link", text, len(res.interfaces), 0)


# iw's station.c print_sta_handler(): "Station %s (on %s)" of the peer's MAC (pasted redacted
# as often as not) and the interface it is a station of, then tab-indented counters. Only a
# Wi-Fi interface has stations (a managed one's AP, an AP's clients, a mesh point's peers).
_IW_STATION = later(rf"^Station\s+\S{{1,40}}\s+\(on ({_IFNAME})\)$")


def _station_iface(res: NetInterfaces, name: str) -> NetInterface | None:
    """The Wi-Fi interface ``name`` of ``res``, added once however many stations it has."""
    for netif in res.interfaces:
        if netif.name == name:
            return netif
    if len(res.interfaces) >= 64:
        return None
    netif = NetInterface(name=name, link_type="ieee802.11")
    res.interfaces.append(netif)
    return netif


def parse_iw_station(text: str) -> Parsed[NetInterfaces]:
    """``iw dev IFACE station dump`` / ``station get MAC``: each ``Station MAC (on IFACE)``
    names a Wi-Fi interface; the counters under it (signal, bitrates, mesh plink) are not read
    here. Nothing is said of the link: a station entry outlives a dropped peer link."""
    return guarded("iw station", _parse_iw_station, text, NetInterfaces)


def _parse_iw_station(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    for line in split_lines(text):
        if m := _IW_STATION.match(line.strip()):
            _station_iface(res, m.group(1))
    return res, finish("iw station", text, len(res.interfaces), 0)


def parse_nmcli_device(text: str) -> Parsed[NetInterfaces]:
    """``nmcli device [status]`` (a table) or ``nmcli device show`` (key/value blocks)."""
    return guarded("nmcli device", _parse_nmcli, text, NetInterfaces)


def _parse_nmcli(text: str) -> Parsed[NetInterfaces]:
    lines = [line for line in split_lines(text) if not is_noise(line)]
    if any(_NMCLI_KV.match(line) for line in lines):
        return _parse_nmcli_show(lines, text)
    res = NetInterfaces()
    bad = 0
    table = False
    for line in lines:
        if _NMCLI_HEAD.match(line):
            table = True
            continue
        m = _NMCLI_ROW.match(line) if table else None
        if m is None:
            bad += 1
            continue
        res.interfaces.append(_nmcli_interface(m.group(1), m.group(2), m.group(3)))
    warnings: list[ParseWarning] = []
    if lines and not table:
        warnings.append(ParseWarning("nmcli device", "no DEVICE TYPE STATE header was found"))
    return res, finish("nmcli device", text, len(res.interfaces), bad, warnings)


def _parse_nmcli_show(lines: list[str], text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    fields: dict[str, str] = {}

    def flush() -> None:
        if fields.get("DEVICE"):
            netif = _nmcli_interface(
                fields["DEVICE"], fields.get("TYPE", ""), fields.get("STATE", "")
            )
            mac = fields.get("HWADDR", "")
            netif.mac = mac.lower() if _MAC.fullmatch(mac) else None
            res.interfaces.append(netif)
        fields.clear()

    for line in lines:
        m = _NMCLI_KV.match(line)
        if m is None:
            continue  # IP4.ADDRESS[1], WIRED-PROPERTIES.CARRIER ...: not read here
        if m.group(1) == "DEVICE":
            flush()
        fields[m.group(1)] = m.group(2)
    flush()
    return res, finish("nmcli device", text, len(res.interfaces), 0)


def _nmcli_interface(name: str, kind: str, state: str) -> NetInterface:
    netif = NetInterface(name=name, link_type=_NMCLI_KINDS.get(kind.lower(), kind.lower()))
    # "connected" / "100 (connected)" (GENERAL.STATE), in any language NetworkManager's
    # catalogs translate it to ("verbunden", "connecté"): NetworkManager has the link up and
    # configured; any other state ("unavailable", "disconnected", "unmanaged") says nothing
    # sure of the cable
    number = re.fullmatch(r"\d{1,3}\s*\((.{1,100})\)", state.strip())
    english = nmcli_state(number.group(1) if number else state)
    if english in ("connected", "connected (externally)"):
        netif.operstate = "UP"
        netif.flags = ["UP", "LOWER_UP"]
    return netif


_PROC_WIRELESS_ROW = later(rf"^\s*({_IFNAME}):\s+[0-9a-f]{{4}}\s")


def parse_proc_net_wireless(text: str) -> Parsed[NetInterfaces]:
    """``/proc/net/wireless`` (net/wireless/wext-proc.c, wireless_seq_printf_stats(): two header
    lines, then ``NAME: STATUS LINK LEVEL NOISE ...`` per Wi-Fi interface). raspinfo and other
    report tools paste it; every row is a Wi-Fi interface."""
    return guarded("/proc/net/wireless", _parse_proc_net_wireless, text, NetInterfaces)


def _parse_proc_net_wireless(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    bad = 0
    for line in split_lines(text):
        if is_noise(line) or line.lstrip().startswith(("Inter-", "face")):
            continue
        if m := _PROC_WIRELESS_ROW.match(line):
            res.interfaces.append(NetInterface(name=m.group(1), link_type="ieee802.11"))
        else:
            bad += 1
    return res, finish("/proc/net/wireless", text, len(res.interfaces), bad)
