"""``networkctl`` / ``networkctl list`` (systemd's networkctl.c list_links(): a table headed
``IDX LINK TYPE OPERATIONAL SETUP``, one row per link). Each row becomes a ``NetInterface``:
TYPE ``ether`` is Ethernet and ``wlan`` Wi-Fi (``link_type`` in ip's words); any other TYPE
(``loopback``, ``none`` for a WireGuard tunnel, ``bridge``, ``bond`` ...) keeps networkctl's
word, which the inventory leaves out. Old networkctl versions print a bridge as ``ether`` too:
its name (``br701``) tells it apart, as for ``ip link``.

OPERATIONAL is networkd's operational state (systemd.network(5), networkctl(1)):
``no-carrier`` (up, no cable or partner) and ``off`` (set down) say there is no link;
``carrier``, ``degraded``, ``degraded-carrier``, ``enslaved`` and ``routable`` say there is
one; ``dormant`` (Wi-Fi not associated) and anything else say nothing sure of it."""

from __future__ import annotations

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines
from .lazy_pattern import later
from .netif import NetInterface, NetInterfaces

_HEAD = later(r"^\s*IDX\s+LINK\s+TYPE\s+OPERATIONAL\b")
_ROW = later(r"^\s*(\d{1,6})\s+([A-Za-z0-9_.:@-]{1,15})\s+([a-z0-9-]+)\s+([a-z-]+)\b")
_KINDS = {"ether": "ether", "wlan": "ieee802.11"}
_CARRIER = {"carrier", "degraded", "degraded-carrier", "enslaved", "routable"}
_NO_LINK = {"no-carrier": ["UP", "NO-CARRIER"], "off": ["BROADCAST"]}
MAX_ROWS = 4096


def parse_networkctl_list(text: str) -> Parsed[NetInterfaces]:
    return guarded("networkctl", _parse, text, NetInterfaces)


def _parse(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    bad = 0
    table = False
    for line in split_lines(text):
        if is_noise(line):
            continue
        if _HEAD.match(line):
            table = True
            continue
        m = _ROW.match(line) if table else None
        if m is None or len(res.interfaces) >= MAX_ROWS:
            bad += 1  # the prompt, "N links listed.", a row cut by the paste
            continue
        res.interfaces.append(_interface(int(m.group(1)), m.group(2), m.group(3), m.group(4)))
    warnings: list[ParseWarning] = []
    if not table and text.strip():
        warnings.append(ParseWarning("networkctl", "no IDX LINK TYPE OPERATIONAL header was found"))
    return res, finish("networkctl", text, len(res.interfaces), bad, warnings)


def _interface(index: int, name: str, kind: str, state: str) -> NetInterface:
    netif = NetInterface(name=name, index=index, link_type=_KINDS.get(kind, kind))
    if state in _CARRIER:
        netif.operstate, netif.flags = "UP", ["UP", "LOWER_UP"]
    elif state in _NO_LINK:
        netif.operstate, netif.flags = "DOWN", list(_NO_LINK[state])
    return netif
