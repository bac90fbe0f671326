"""Parser for ``ethtool -S IFACE``: the driver's own counters, one ``name: value`` a line.

The names are the driver's (``rx_crc_errors``, lan78xx's ``RX FCS Errors``, stmmac's
``mmc_rx_crc_error``, a queue's ``[0]: rx_discards`` or ``rxq0: rx_pkts``); the value is an
unsigned 64-bit count. A driver without counters makes ethtool say "no stats available" (or
"Operation not supported"): that is no counters, not an unreadable output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines, unbold
from .lazy_pattern import later

SOURCE = "ethtool -S"
MAX_COUNTERS = 4096  # a 64-queue server NIC prints ~2,000; a Pi's NIC 13 to 200
MAX_NAME = 64  # ETH_GSTRING_LEN is 32; queue prefixes ("[63]: ", "rxq12: ") add a few

_HEADER_RE = later(r"^(?:NIC|PHY) statistics:\s*$")
_COUNTER_RE = later(r"^(?P<name>\S(?:.*\S)?)\s*:\s+(?P<value>\d{1,20})$")
_NONE_RE = later(
    r"^(?:no stats available|Cannot get stats strings information|"
    r"Cannot get stats information|.*Operation not supported)",
    re.IGNORECASE,
)
_ERROR_RE = later(r"^(?:Cannot |netlink error|ethtool: |Could not |No such device)", re.I)
_QUOTE_RE = later(r"^\s*>\s?")  # a forum's quote marks before each line


@dataclass(frozen=True)
class Counter:
    name: str  # as printed, queue prefix included ("[0]: rx_discards")
    value: int

    @property
    def line(self) -> str:
        """The counter as ethtool shows it (without its indentation)."""
        return f"{self.name}: {self.value}"


@dataclass
class EthtoolStats:
    interface: str | None = None
    counters: list[Counter] = field(default_factory=list)
    none_offered: bool = False  # the driver has no counters ("no stats available")

    def as_dict(self) -> dict[str, int]:
        """Name → value; a name printed twice (bcmgenet's two ``rx_bytes``) keeps its first."""
        out: dict[str, int] = {}
        for counter in self.counters:
            out.setdefault(counter.name, counter.value)
        return out


def parse_ethtool_stats(text: str) -> Parsed[EthtoolStats]:
    """``ethtool -S IFACE``: every counter the driver offers, in its order."""
    return guarded(SOURCE, _parse, text, EthtoolStats)


def _parse(text: str) -> Parsed[EthtoolStats]:
    res = EthtoolStats()
    warnings: list[ParseWarning] = []
    found = bad = 0
    header_seen = False
    for raw in split_lines(text):
        line = unbold(_QUOTE_RE.sub("", raw)).strip()
        if is_noise(line):
            continue
        if _HEADER_RE.match(line):
            header_seen = True  # not "found": a header and no counters is a cut output
            continue
        if not header_seen and re.search(r"\bethtool\b", line):
            continue  # the command line itself, pasted with its prompt
        if _NONE_RE.match(line):
            res.none_offered = True
            found += 1
            continue
        if _ERROR_RE.match(line):
            warnings.append(ParseWarning(SOURCE, f"ethtool reported an error: {line[:120]}"))
            continue
        m = _COUNTER_RE.match(line) if len(line) <= MAX_NAME + 30 else None
        if m is None or len(m.group("name")) > MAX_NAME:
            bad += 1
            continue
        value = int(m.group("value"))
        if value >= 2**64:
            bad += 1
            continue
        if len(res.counters) >= MAX_COUNTERS:
            warnings.append(
                ParseWarning(SOURCE, f"more than {MAX_COUNTERS} counters: the rest were left out")
            )
            break
        res.counters.append(Counter(m.group("name"), value))
        found += 1
    return res, finish(SOURCE, text, found, bad, warnings)
