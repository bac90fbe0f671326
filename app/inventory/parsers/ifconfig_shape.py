"""net-tools' ``ifconfig`` in any language, read by the shape of its lines.

A translated ifconfig (``LANG=fr_FR``: "Packets reçus:3 erreurs:0 :0 overruns:0 frame:0",
"Octets reçus:702 (702.0 B) Octets transmis:6003 (6.0 KB)", "inet adr:…  Masque:…") keeps
what net-tools prints around the words: the numbers, their order and the colons or double
spaces between them. So the labels are not read; each line is read by where its numbers stand,
in the order net-tools prints them (lib/interface.c, ife_print_long; the formats below are its
msgids, the ones every translation in Debian's net-tools keeps the numbers of, checked by
tests/unit/parsers/test_ifconfig_locales.py against the package's own .mo files):

- old format (net-tools 1.60, and 2.x's ``ifconfig -v``-less builds that still print it):
  ``RX packets:%llu errors:%lu dropped:%lu overruns:%lu frame:%lu``, then the same five for
  TX with ``carrier``; ``collisions:%lu txqueuelen:%d``; ``RX bytes:%llu (%lu.%lu %s)  TX
  bytes:%llu (%lu.%lu %s)``; ``%s addr:%s`` (``%s`` the family, ``inet``), `` Bcast:%s``,
  `` Mask:%s``; ``inet6 addr: %s/%d`` with `` Scope:``;
- new format (net-tools 2.x): ``RX packets %llu  bytes %llu (%lu.%lu %s)``, ``RX errors %lu
  dropped %lu  overruns %lu  frame %lu``, then TX's, whose errors line has five numbers
  (``carrier``, ``collisions``).

A counters line names its direction when its label has the word RX or TX (Portuguese "Pacotes
RX:"); otherwise it is RX when the interface has no RX figures yet, as net-tools prints RX
first."""

from __future__ import annotations

import re

from .lazy_pattern import later
from .netif_model import IpAddress, NetInterface
from .tool_labels import ifconfig_flags

# A label: any words but no digit or colon (it may be empty: French "erreurs:0 :0").
_LABEL = r"[^\d:\n]{0,40}"
_OLD_PAIRS = later(rf"^\s*(?:{_LABEL}:\s?\d+\s*){{2,5}}$")
_OLD_NUMBER = later(r":\s?(\d+)")
_SIZE = r"\(\d+(?:[.,]\d+)?\s?\S{0,4}\)"
# a paste's closing Markdown backtick may follow the last line
_OLD_BYTES = later(
    rf"^\s*({_LABEL}):\s?(\d+) {_SIZE}\s+({_LABEL}):\s?(\d+) {_SIZE}\s*[`*]{{0,3}}\s*$"
)
_IPV4 = r"\d{1,3}(?:\.\d{1,3}){3}"
_OLD_INET = later(rf"^\s+inet\s?{_LABEL}:\s?({_IPV4})((?:\s+{_LABEL}:\s?{_IPV4}){{0,2}})\s*$")
_OLD_INET_MORE = later(rf":\s?({_IPV4})")
_OLD_INET6 = later(
    r"^\s+[^\d:\n]{0,20}(?<![A-Za-z])inet6(?![A-Za-z0-9])[^\d:\n]{0,20}:"
    r"\s?([0-9a-fA-F:.]+)/(\d{1,3})"
    rf"(?:\s+{_LABEL}:\s?(\S+))?\s*$"
)
# The header: the name at the line's start, the encapsulation after a label ("Lien encap:",
# "Protokoll:", "リンク方法:"), then the hardware address after another ("Hardware Adresse").
_MAC = r"[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5,19}"
_OLD_HEADER = later(
    rf"^(?:[`*>]+\s*)?([A-Za-z][\w.@-]{{0,15}})\s+{_LABEL}:\s?(\S[^:\n]{{0,40}}?)"
    rf"(?:\s{{2,}}{_LABEL}?\s?({_MAC}))?\s*$"
)
# "Interrupt:46 Base address:0xe000" ("Interruption:", "割り込み:"), "Memory:e0000000-e0020000"
_OLD_IRQ = later(rf"^\s+{_LABEL}:(\d+)(?:\s+{_LABEL}:0x[0-9a-fA-F]+)?\s*$")
_OLD_MEMORY = later(rf"^\s+{_LABEL}:[0-9a-fA-F]+-[0-9a-fA-F]+\s*$")
# The flags line: net-tools prints each flag through gettext (``_("RUNNING ")``), then `` MTU:%d
# Metric:%d``, whose "MTU:" every catalog in Debian's net-tools keeps ("ACTIVO DIFUSIÓN
# FUNCIONANDO MULTICAST  MTU:1500  Métrica:1" under Ubuntu's Spanish one)
_OLD_FLAGS = later(
    r"^\s+([^\d:\n]{1,160}?)\s+MTU:\s?(\d{1,6})(?:\s+[^\d:\n]{1,30}:\s?\d{1,6})?\s*$"
)
# New format: fields apart by two spaces, each a label and a number (the first the direction).
_NEW_FIELD = later(r"^[^\d:\n]{1,40}? (\d+)(?: " + _SIZE + r")?$")
_DIRECTION = later(r"(?<![A-Za-z])(RX|TX)(?![A-Za-z])")


def _direction(label: str, first: bool) -> str:
    """RX or TX by the label's own word; else by order (`first`: no RX figure read yet)."""
    m = _DIRECTION.search(label)
    if m:
        return m.group(1)
    return "RX" if first else "TX"


def _set_counts(cur: NetInterface, direction: str, packets: int, errors: int, dropped: int) -> None:
    if direction == "RX":
        cur.rx_packets, cur.rx_errors, cur.rx_dropped = packets, errors, dropped
    else:
        cur.tx_packets, cur.tx_errors, cur.tx_dropped = packets, errors, dropped


def _old_counters(cur: NetInterface, line: str) -> bool:
    if not _OLD_PAIRS.match(line):
        return False
    numbers = [int(n) for n in _OLD_NUMBER.findall(line)]
    if len(numbers) == 5:  # packets, errors, dropped, overruns, frame (RX) or carrier (TX)
        direction = _direction(line.split(":", 1)[0], cur.rx_packets is None)
        _set_counts(cur, direction, *numbers[:3])
        return True
    # collisions and txqueuelen, after TX's five
    return len(numbers) == 2 and cur.tx_packets is not None


def _old_bytes(cur: NetInterface, line: str) -> bool:
    m = _OLD_BYTES.match(line)
    if not m:
        return False
    first, second = _direction(m.group(1), True), _direction(m.group(3), False)
    if first == second:  # labels that name no direction: RX first, as net-tools prints them
        first, second = "RX", "TX"
    values = {first: int(m.group(2)), second: int(m.group(4))}
    cur.rx_bytes, cur.tx_bytes = values.get("RX"), values.get("TX")
    return True


def _new_counters(cur: NetInterface, line: str) -> bool:
    fields = re.split(r"\s{2,}", line.strip())
    if not 2 <= len(fields) <= 5:
        return False
    matches = [_NEW_FIELD.match(f) for f in fields]
    if not all(matches):
        return False
    numbers = [int(m.group(1)) for m in matches if m]
    sized = "(" in fields[-1]
    if len(fields) == 2 and sized:  # packets, bytes
        direction = _direction(fields[0], cur.rx_bytes is None)
        if direction == "RX":
            cur.rx_packets, cur.rx_bytes = numbers
        else:
            cur.tx_packets, cur.tx_bytes = numbers
        return True
    if len(fields) in (4, 5) and not sized:  # errors, dropped, overruns, frame (+ collisions)
        direction = "RX" if len(fields) == 4 else "TX"
        if direction == "RX":
            cur.rx_errors, cur.rx_dropped = numbers[0], numbers[1]
        else:
            cur.tx_errors, cur.tx_dropped = numbers[0], numbers[1]
        return True
    return False


def _old_addresses(cur: NetInterface, line: str) -> bool:
    m = _OLD_INET.match(line)
    if m:
        more = _OLD_INET_MORE.findall(m.group(2))
        # addr, then Bcast (or P-t-P) and Mask; the mask is always the last
        broadcast = more[0] if len(more) == 2 else None
        netmask = more[-1] if more else None
        cur.addresses.append(IpAddress("inet", m.group(1), broadcast=broadcast, netmask=netmask))
        return True
    m = _OLD_INET6.match(line)
    if m and ":" in m.group(1):
        cur.addresses.append(
            IpAddress("inet6", m.group(1), prefixlen=int(m.group(2)), scope=m.group(3))
        )
        return True
    return False


def _old_flags(cur: NetInterface, line: str) -> bool:
    """The flags line in another language: the MTU, and the flags when every word is one a
    catalog names (tool_labels.ifconfig_flag); one unknown word leaves the flags unread, as
    the missing one may be RUNNING (the carrier) and the others would then say "no carrier"."""
    m = _OLD_FLAGS.match(line)
    if not m:
        return False
    cur.mtu = int(m.group(2))
    cur.flags = ifconfig_flags(m.group(1).split()) or []
    return True


def _old_device(cur: NetInterface, line: str) -> bool:
    """The interrupt and memory lines, printed after the byte counts."""
    if cur.rx_bytes is None and cur.tx_bytes is None:
        return False
    if m := _OLD_IRQ.match(line):
        cur.irq = int(m.group(1))
        return True
    return bool(_OLD_MEMORY.match(line))


def translated_header(line: str) -> tuple[str, str, str | None] | None:
    """An old-format header in another language: (name, encapsulation, MAC or None)."""
    if len(line) > 200 or line[:1].isspace():
        return None
    m = _OLD_HEADER.match(line)
    if not m:
        return None
    return m.group(1), m.group(2).strip(), m.group(3)


def read_translated_line(cur: NetInterface, line: str) -> bool:
    """Read one line of an interface's block by its shape; False: not one of net-tools'."""
    if len(line) > 400:
        return False
    return (
        _old_flags(cur, line)
        or _old_counters(cur, line)
        or _old_bytes(cur, line)
        or _new_counters(cur, line)
        or _old_addresses(cur, line)
        or _old_device(cur, line)
    )
