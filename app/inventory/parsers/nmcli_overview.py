"""``nmcli`` with no arguments: NetworkManager's overview of its devices.

Format, from NetworkManager's clients/cli/general.c (do_overview(), device_overview(),
ac_overview()): per device a header ``IFACE: STATE[ to CONNECTION]``, an optional
tab-indented ``"DESCRIPTION"``, then one tab-indented line ``TYPE[ (DRIVER)], [HWADDR, ]
[autoconnect, ][fw missing, ][plugin missing, ]sw|hw[, iface IP_IFACE][, port ID][, mtu N]``
("sw" when nm_device_is_software(): a bridge, veth, bond, tun ... that NetworkManager knows
it or the kernel made, "hw" a device on a bus), then the active connection's ``inet4``,
``route4`` ... lines; VPN connections come first as ``NAME VPN connection`` blocks, and the
output ends with a "Use "nmcli device show" ..." hint. A paste (corpus/virt55_pi4_haos_435_*)
may start with the shell's prompt; a line of no such shape counts as unread."""

from __future__ import annotations

from .common import Parsed, finish, guarded, is_noise, split_lines
from .lazy_pattern import later
from .netif_model import NetInterface, NetInterfaces

_IFNAME = r"[A-Za-z0-9_.:@-]{1,15}"
# nmc_device_state_to_string(): "connected", "disconnected", "unmanaged", "unavailable",
# "connecting (getting IP configuration)", "connected (externally)" ...: lower-case words
_HEADER = later(rf"^({_IFNAME}): ([a-z][a-z ()-]*?)(?: to (.+))?\s*$")
_DEVICE = later(r"^\s+([A-Za-z][\w -]*?)(?: \(([^)]*)\))?, (.+?)\s*$")
_DETAIL = later(r"^\s+(?:\"[^\"]*\"|(?:inet[46]|route[46]|ip[46] default|master|VPN)\b.*)")
_MAC = later(r"(?i)^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$")
_MTU = later(r"^mtu (\d+)$")
# nm_device_get_type_description() words that are a NIC's kind, in ip's words
_KINDS = {"ethernet": "ether", "wifi": "ieee802.11", "802-11-wireless": "ieee802.11"}
_TAIL = ('Use "nmcli', '"nmcli connection', "Consult nmcli", "DNS configuration", "servers:")


def parse_nmcli_overview(text: str) -> Parsed[NetInterfaces]:
    """Each device of the overview, with its kind, driver, MAC, MTU, whether NetworkManager
    calls it software, and its connection state."""
    return guarded("nmcli", _parse, text, NetInterfaces)


def _parse(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    bad = 0
    cur: NetInterface | None = None
    for line in split_lines(text):
        if is_noise(line) or line.lstrip().startswith(_TAIL) or line.endswith("VPN connection"):
            continue
        if not line[:1].isspace() and (m := _HEADER.match(line)):
            cur = NetInterface(name=m.group(1))
            if m.group(2) in ("connected", "connected (externally)"):
                # NM_DEVICE_STATE_ACTIVATED: the device is up and configured; any other state
                # says nothing sure of the cable
                cur.operstate, cur.flags = "UP", ["UP", "LOWER_UP"]
            res.interfaces.append(cur)
            continue
        if cur is not None and cur.link_type is None and (d := _DEVICE.match(line)):
            _device_line(cur, d.group(1), d.group(2), d.group(3))
            continue
        if cur is not None and _DETAIL.match(line):
            continue
        bad += 1
    return res, finish("nmcli", text, len(res.interfaces), bad)


def _device_line(netif: NetInterface, kind: str, driver: str | None, rest: str) -> None:
    netif.link_type = _KINDS.get(kind.lower(), kind.lower())
    netif.driver = driver or None
    for part in (p.strip() for p in rest.split(",")):
        if _MAC.match(part):
            netif.mac = part.lower()
        elif part in ("sw", "hw"):
            netif.software = part == "sw"
        elif m := _MTU.match(part):
            netif.mtu = int(m.group(1))


__all__ = ["parse_nmcli_overview"]
