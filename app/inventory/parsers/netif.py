"""Network interfaces from ``ip -j addr|link``, ``ip addr``/``ip link``/``ip -s link`` and
``ifconfig`` (old ``inet addr:`` and new ``inet 1.2.3.4  netmask`` net-tools formats, and the
short table of ``ifconfig -s``)."""

from __future__ import annotations

import json
import re
from typing import Any

from sbctune.limits import MAX_INTERFACES, MAX_JSON_DEPTH, json_depth, parse_json
from sbctune.wording import counted, grouped

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines, to_int
from .ifconfig_shape import read_translated_line, translated_header
from .ifconfig_short import short_table_header, short_table_row
from .ip_brief import brief_row
from .lazy_pattern import later
from .netif_model import IpAddress, NetInterface, NetInterfaces
from .tool_labels import ifconfig_flags

__all__ = [
    "IpAddress",
    "NetInterface",
    "NetInterfaces",
    "parse_ifconfig",
    "parse_ip_json",
    "parse_ip_text",
]


# --- ip -j ------------------------------------------------------------------------


def parse_ip_json(text: str) -> Parsed[NetInterfaces]:
    """``ip -j addr`` / ``ip -j link`` (also with ``-s``/``-d``/``-p``)."""
    return guarded("ip -j", _parse_ip_json, text, NetInterfaces)


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _str_or_none(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _from_json(obj: dict[str, Any]) -> NetInterface | None:
    name = obj.get("ifname")
    if not isinstance(name, str):
        return None
    iface = NetInterface(name=name)
    iface.index = _int_or_none(obj.get("ifindex"))
    flags = obj.get("flags")
    iface.flags = [f for f in flags if isinstance(f, str)] if isinstance(flags, list) else []
    iface.mtu = _int_or_none(obj.get("mtu"))
    iface.operstate = _str_or_none(obj.get("operstate"))
    iface.link_type = _str_or_none(obj.get("link_type"))
    iface.mac = _str_or_none(obj.get("address"))
    iface.qdisc = _str_or_none(obj.get("qdisc"))
    iface.master = _str_or_none(obj.get("master"))
    alt = obj.get("altnames")
    if isinstance(alt, list):
        iface.altnames = [a for a in alt if isinstance(a, str)]
    infos = obj.get("addr_info")
    if isinstance(infos, list):
        for a in infos:
            if isinstance(a, dict) and isinstance(a.get("local"), str):
                iface.addresses.append(
                    IpAddress(
                        family=str(a.get("family", "")),
                        address=a["local"],
                        prefixlen=_int_or_none(a.get("prefixlen")),
                        broadcast=_str_or_none(a.get("broadcast")),
                        scope=_str_or_none(a.get("scope")),
                    )
                )
    stats = obj.get("stats64") or obj.get("stats")
    if isinstance(stats, dict):
        rx, tx = stats.get("rx"), stats.get("tx")
        if isinstance(rx, dict):
            iface.rx_bytes = _int_or_none(rx.get("bytes"))
            iface.rx_packets = _int_or_none(rx.get("packets"))
            iface.rx_errors = _int_or_none(rx.get("errors"))
            iface.rx_dropped = _int_or_none(rx.get("dropped"))
        if isinstance(tx, dict):
            iface.tx_bytes = _int_or_none(tx.get("bytes"))
            iface.tx_packets = _int_or_none(tx.get("packets"))
            iface.tx_errors = _int_or_none(tx.get("errors"))
            iface.tx_dropped = _int_or_none(tx.get("dropped"))
    return iface


def _parse_ip_json(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    warnings: list[ParseWarning] = []
    objs: list[Any] = []
    try:
        data = parse_json(text)
        objs = data if isinstance(data, list) else [data]
    except ValueError:
        # truncated or joined pastes: decode every complete interface object we can find.
        # A failed try reads on to where the text breaks, and the tries that overlap are
        # nested in one another: bounded nesting keeps the whole search linear.
        if json_depth(text.encode("utf-8", "replace")) > MAX_JSON_DEPTH:
            raise ValueError(
                f"nested deeper than the {MAX_JSON_DEPTH} levels sbctune reads"
            ) from None
        decoder = json.JSONDecoder()
        for m in re.finditer(r'\{\s*"ifindex"', text):
            try:
                obj, _ = decoder.raw_decode(text, m.start())
            except ValueError:
                continue
            objs.append(obj)
        if text.strip():
            warnings.append(
                ParseWarning(
                    "ip -j",
                    "is not complete JSON (truncated?); "
                    f"{counted(len(objs), 'interface')} could be read from it",
                )
            )
    bad = 0
    if len(objs) > MAX_INTERFACES:
        warnings.append(ParseWarning("ip -j", (
            f"lists {counted(len(objs), 'interface')}; only the first"
            f" {grouped(MAX_INTERFACES)} were read"
        )))  # fmt: skip
        objs = objs[:MAX_INTERFACES]
    for obj in objs:
        iface = _from_json(obj) if isinstance(obj, dict) else None
        if iface is None:
            bad += 1
        else:
            res.interfaces.append(iface)
    return res, finish("ip -j", text, len(res.interfaces), bad, warnings, what="entries")


# --- ip addr / ip link / ip -s link --------------------------------------------------

# a paste's Markdown backtick, bold or "> " quote glued before the name ("`enp0s20f0u1 Link
# encap", "`3: wlan0: <BROADCAST,MULTICAST> ..." of an inline code span): not part of it
_PASTE_MARK = r"(?:[`*>]+\s*)?"
# the colon after the name is optional: "2: eth0 <NO-CARRIER,...>" as one forum post retyped it
_IP_HEADER_RE = later(rf"^{_PASTE_MARK}(\d+):\s+([^:@\s<]+)(?:@(\S+?))?:?\s+<([^>]*)>\s*(.*)$")
# A header whose flags and attributes the poster elided ("2: eth0: ...", "3: wlan0: …",
# corpus/virt55_pi_raspiblitz_1593_*): the interface and its index stand, its flags are not
# shown (no flag is read as off)
_IP_ELIDED_HEADER_RE = later(r"^(\d+):\s+([^:@\s<]+)(?:@(\S+?))?:\s+(?:\.\.\.|…)\s*$")
_IP_ADDR_RE = later(r"^\s+(inet6?)\s+([0-9a-fA-F.:]+)(?:/(\d+))?(.*)$")
_IP_LINK_RE = later(r"^\s+link/(\S+)(?:\s+(\S+))?")
_IP_STATS_HDR_RE = later(r"^\s+(RX|TX)(?: errors)?:\s+(.*)$")


def parse_ip_text(text: str, iface: str | None = None) -> Parsed[NetInterfaces]:
    """``ip addr``, ``ip link show``, ``ip -s link`` text output. ``iface``: the interface the
    command named (``ip -s link show eth0``), whose counters a paste may give without the
    ``2: eth0: <...>`` line before them."""
    return guarded("ip", lambda t: _parse_ip_text(t, iface), text, NetInterfaces)


def _kv_after(rest: str, key: str) -> str | None:
    m = re.search(rf"(?:^|\s){re.escape(key)}\s+(\S+)", rest)
    return m.group(1) if m else None


def _parse_ip_text(text: str, iface: str | None = None) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    latest: dict[str, int] = {}
    bad = 0
    cur: NetInterface | None = None
    pending: tuple[str, list[str]] | None = None  # (RX|TX, column names)
    for line in split_lines(text):
        if is_noise(line):
            continue
        m = _IP_HEADER_RE.match(line)
        if m:
            pending = None
            rest = m.group(5)
            cur = NetInterface(
                name=m.group(2),
                index=int(m.group(1)),
                parent=m.group(3),
                flags=[f for f in m.group(4).split(",") if f],
                mtu=to_int(_kv_after(rest, "mtu")),
                qdisc=_kv_after(rest, "qdisc"),
                master=_kv_after(rest, "master"),
                operstate=_kv_after(rest, "state"),
            )
            _append_latest(res, latest, cur)
            continue
        if "0" <= line[:1] <= "9" and (e := _IP_ELIDED_HEADER_RE.match(line)):
            pending = None
            cur = NetInterface(name=e.group(2), index=int(e.group(1)), parent=e.group(3))
            _append_latest(res, latest, cur)
            continue
        if (cur is None or cur.index is None) and (row := brief_row(line)) is not None:
            pending = None  # `ip -br link|addr`: one row per interface, no header (ip_brief)
            cur = row
            _append_latest(res, latest, cur)
            continue
        if cur is None and iface and not res.interfaces and _IP_STATS_HDR_RE.match(line):
            cur = NetInterface(name=iface)  # the counters alone, of the interface named
            res.interfaces.append(cur)
        if cur is None:
            bad += 1
            continue
        if pending is not None:
            values = line.split()
            if values and all((v.isascii() and v.isdigit()) for v in values):
                _apply_stats(cur, pending[0], pending[1], values)
                pending = None
                continue
            pending = None
        m2 = _IP_STATS_HDR_RE.match(line)
        if m2:
            cols = m2.group(2).split()
            pending = (m2.group(1), cols) if "errors:" not in line else (m2.group(1) + "e", cols)
            continue
        m3 = _IP_LINK_RE.match(line)
        if m3:
            cur.link_type = m3.group(1)
            if m3.group(2) and re.match(r"^[0-9a-fA-F:]+$", m3.group(2)):
                cur.mac = m3.group(2)
            continue
        m4 = _IP_ADDR_RE.match(line)
        if m4:
            tail = m4.group(4)
            cur.addresses.append(
                IpAddress(
                    family=m4.group(1),
                    address=m4.group(2),
                    prefixlen=to_int(m4.group(3)),
                    broadcast=_kv_after(tail, "brd"),
                    scope=_kv_after(tail, "scope"),
                )
            )
            continue
        s = line.strip()
        if s.startswith("altname "):
            cur.altnames.append(s.split()[1])
            continue
        if s.startswith(("valid_lft", "prop ", "vf ", "alias ")) or line.startswith(("    ", "\t")):
            # other detail lines (-d output, lifetimes); a link kind's own -d lines start with a
            # tab: iproute2 ip/iplink_can.c can_print_opt() and can_print_xstats() print each
            # as "\n\t  bitrate %d ...", "\n\t  re-started bus-errors ..."
            continue
        bad += 1
    return res, finish("ip", text, len(res.interfaces), bad)


def _append_latest(res: NetInterfaces, latest: dict[str, int], cur: NetInterface) -> None:
    """One output that shows an interface twice is a paste of the command run twice (``ip a``
    before and after plugging the cable): the later block is the interface's state now, so
    it takes the earlier one's place; what only names the interface (its MAC, link type,
    parent) is kept from the earlier block when the later one lacks it. ``latest``: each
    name's index in ``res.interfaces`` (no scan per block: a container host has thousands)."""
    at = latest.get(cur.name)
    latest[cur.name] = len(res.interfaces) if at is None else at
    if at is None:
        res.interfaces.append(cur)
        return
    before = res.interfaces[at]
    cur.mac = cur.mac or before.mac
    cur.link_type = cur.link_type or before.link_type
    cur.parent = cur.parent or before.parent
    cur.altnames = cur.altnames or before.altnames
    cur.master = cur.master or before.master
    res.interfaces[at] = cur


def _apply_stats(cur: NetInterface, which: str, cols: list[str], values: list[str]) -> None:
    if which not in {"RX", "TX"}:
        return  # "RX errors:" detail table of ip -s -s
    table = {c: to_int(v) for c, v in zip(cols, values, strict=False)}
    if which == "RX":
        cur.rx_bytes, cur.rx_packets = table.get("bytes"), table.get("packets")
        cur.rx_errors, cur.rx_dropped = table.get("errors"), table.get("dropped")
    else:
        cur.tx_bytes, cur.tx_packets = table.get("bytes"), table.get("packets")
        cur.tx_errors, cur.tx_dropped = table.get("errors"), table.get("dropped")


# --- ifconfig ---------------------------------------------------------------------------

# A header is told by its words, not its column: a forum that indents a whole paste (and
# collapses ifconfig's own alignment) leaves "    eth0 Link encap:Ethernet ...".
_IFC_OLD_HDR = later(rf"^\s*{_PASTE_MARK}(\S+?)\s+Link encap:(.*?)(?:\s+HWaddr\s+(\S+))?\s*$")
# net-tools prints "flags=%d<" of struct interface's `short flags` (lib/interface.c
# ife_print_long()): IFF_DYNAMIC (0x8000) makes it negative ("flags=-28605<UP,...,DYNAMIC>")
_IFC_NEW_HDR = later(rf"^\s*{_PASTE_MARK}(\S+?):\s+flags=-?\d+<([^>]*)>\s+mtu\s+(\d+)")
_IFC_OLD_INET = later(r"^\s+inet addr:(\S+)(?:\s+(?:Bcast|P-t-P):(\S+))?(?:\s+Mask:(\S+))?")
_IFC_OLD_INET6 = later(r"^\s+inet6 addr:\s*(\S+?)(?:/(\d+))?\s+Scope:(\S+)")
_IFC_NEW_INET = later(r"^\s+inet\s+(\S+)\s+netmask\s+(\S+)(?:\s+broadcast\s+(\S+))?")
_IFC_NEW_INET6 = later(r"^\s+inet6\s+(\S+)\s+prefixlen\s+(\d+)")
_IFC_OLD_FLAGS = later(r"^\s+((?:[A-Z]+\s+)*[A-Z]+)\s+MTU:(\d+)")
_IFC_COUNTS = later(r"^\s+(RX|TX) packets[: ](\d+)")
_IFC_KV = later(r"(errors|dropped|bytes)[: ](\d+)")
_IFC_OLD_BYTES = later(r"^\s+RX bytes:(\d+).*?TX bytes:(\d+)")
_IFC_NEW_ETHER = later(r"^\s+ether\s+(\S+)")
# net-tools' hardware line, whatever the type (lib/interface.c ife_print_long(): "        %s %s"
# of hw->name and its address, "  txqueuelen %d", then "  (%s)\n" of hw->title): "unspec
# 00-00-...  txqueuelen 500  (UNSPEC)" of a TUN or WireGuard device, "ppp  txqueuelen 3
# (Point-to-Point Protocol)"; the type name is what ip prints after "link/" (ether, loop ...)
# (ife_print_long() leaves txqueuelen out only when SIOCGIFTXQLEN failed: required here, so a
# line of prose glued into a paste is never read as a hardware type)
_IFC_NEW_HW = later(r"^\s+([a-z][a-z0-9-]{0,15})(?: +\S+)? +txqueuelen \d+ +\([^()]{1,40}\)\s*$")
_IFC_IRQ = later(r"(?:Interrupt:|device interrupt )(\d+)")
# net-tools 1.60's other continuation lines, whole (ife_print_long(): "collisions:%llu ",
# "txqueuelen:%d ", "Interrupt:%d ", "Base address:0x%lx ", "Memory:%lx-%lx ")
_IFC_OLD_MISC = later(
    r"^\s+(?:collisions:\d+(?:\s+txqueuelen:\d+)?|Interrupt:(\d+)(?:\s+Base address:\S+)?"
    r"(?:\s+Memory:\S+)?|Memory:\S+)\s*$"
)
_IFC_OTHER = later(
    r"^\s+(?:collisions|loop|unspec|Interrupt|device|RX errors|TX errors|Memory|txqueuelen)"
)


def parse_ifconfig(text: str) -> Parsed[NetInterfaces]:
    """``ifconfig`` in both the old (``inet addr:``) and new (``inet x netmask``) format."""
    return guarded("ifconfig", _parse_ifconfig, text, NetInterfaces)


def _parse_ifconfig(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    latest: dict[str, int] = {}
    bad = 0
    cur: NetInterface | None = None
    gap = False  # a blank line since cur's header: a column-0 line is then no part of it
    table: list[str] | None = None  # the short table's header words while its rows follow
    for line in split_lines(text):
        if not line.strip():
            gap = True
        if is_noise(line):
            continue
        if columns := short_table_header(line):  # `ifconfig -s` / `netstat -i`
            table, cur = columns, None
            continue
        if table is not None:
            if (row := short_table_row(table, line)) is not None:
                _append_latest(res, latest, row)
                continue
            table = None
        m = _IFC_NEW_HDR.match(line)
        if m:
            cur = NetInterface(name=m.group(1), flags=m.group(2).split(","), mtu=int(m.group(3)))
            _append_latest(res, latest, cur)
            gap = False
            continue
        m = _IFC_OLD_HDR.match(line)
        # "Link encap:Ethernet  direcciónHW 20:cf:..": the encapsulation's label kept, the
        # address's translated (Spanish): read by its shape below, not as an encapsulation
        translated = translated_header(line) if m and m.group(3) is None else None
        if m and not (translated and translated[2]):
            cur = NetInterface(
                name=m.group(1), link_type=m.group(2).strip() or None, mac=m.group(3)
            )
            _append_latest(res, latest, cur)
            gap = False
            continue
        if header := translated_header(line):  # "eth0      Lien encap:Ethernet  HWaddr …"
            cur = NetInterface(name=header[0], link_type=header[1], mac=header[2])
            _append_latest(res, latest, cur)
            gap = False
            continue
        if cur is None:
            bad += 1
            continue
        if _apply_ifconfig_line(cur, line):
            continue
        if not gap and not line[:1].isspace() and _apply_known_shape(cur, " " + line):
            continue  # net-tools' block pasted with its indentation lost
        bad += 1
    return res, finish("ifconfig", text, len(res.interfaces), bad)


def _apply_ifconfig_line(cur: NetInterface, line: str) -> bool:
    return _apply_known_shape(cur, line) or _apply_other(cur, line)


def _apply_known_shape(cur: NetInterface, line: str) -> bool:
    """net-tools' own continuation lines (addresses, flags, counters, ether), read also when
    a paste lost their indentation: their shapes are net-tools', not a word of prose."""
    m = _IFC_OLD_INET.match(line)
    if m:
        cur.addresses.append(
            IpAddress("inet", m.group(1), broadcast=m.group(2), netmask=m.group(3))
        )
        return True
    m = _IFC_OLD_INET6.match(line)
    if m:
        cur.addresses.append(
            IpAddress("inet6", m.group(1), prefixlen=to_int(m.group(2)), scope=m.group(3))
        )
        return True
    m = _IFC_NEW_INET.match(line)
    if m:
        cur.addresses.append(
            IpAddress("inet", m.group(1), netmask=m.group(2), broadcast=m.group(3))
        )
        return True
    m = _IFC_NEW_INET6.match(line)
    if m:
        cur.addresses.append(IpAddress("inet6", m.group(1), prefixlen=int(m.group(2))))
        return True
    m = _IFC_OLD_FLAGS.match(line)
    if m:
        # a word that is no flag (Ubuntu's Spanish "ACTIVO BUCLE FUNCIONANDO"): none is read
        cur.flags = ifconfig_flags(m.group(1).split()) or []
        cur.mtu = int(m.group(2))
        return True
    m = _IFC_COUNTS.match(line)
    if m:
        kv = {k: int(v) for k, v in _IFC_KV.findall(line)}
        if m.group(1) == "RX":
            cur.rx_packets = int(m.group(2))
            cur.rx_errors = kv.get("errors", cur.rx_errors)
            cur.rx_dropped = kv.get("dropped", cur.rx_dropped)
            cur.rx_bytes = kv.get("bytes", cur.rx_bytes)
        else:
            cur.tx_packets = int(m.group(2))
            cur.tx_errors = kv.get("errors", cur.tx_errors)
            cur.tx_dropped = kv.get("dropped", cur.tx_dropped)
            cur.tx_bytes = kv.get("bytes", cur.tx_bytes)
        return True
    m = _IFC_OLD_BYTES.match(line)
    if m:
        cur.rx_bytes, cur.tx_bytes = int(m.group(1)), int(m.group(2))
        return True
    s = line.strip()
    if s.startswith(("RX errors", "TX errors")):
        kv = {k: int(v) for k, v in _IFC_KV.findall(line)}
        if s.startswith("RX"):
            cur.rx_errors, cur.rx_dropped = kv.get("errors"), kv.get("dropped")
        else:
            cur.tx_errors, cur.tx_dropped = kv.get("errors"), kv.get("dropped")
        return True
    m = _IFC_NEW_ETHER.match(line)
    if m:
        cur.mac = m.group(1)
        cur.link_type = "ether"
        return True
    if m := _IFC_OLD_MISC.match(line):
        cur.irq = int(m.group(1)) if m.group(1) else cur.irq
        return True
    if m := _IFC_NEW_HW.match(line):
        cur.link_type = cur.link_type or m.group(1)
        return True
    return False


def _apply_other(cur: NetInterface, line: str) -> bool:
    if m := _IFC_IRQ.search(line):
        cur.irq = int(m.group(1))  # old ifconfig: "Interrupt:46" (or "device interrupt 16")
    # another language's labels ("Packets reçus:3 erreurs:0 ..."): read by the line's shape
    return read_translated_line(cur, line) or bool(_IFC_OTHER.match(line))
