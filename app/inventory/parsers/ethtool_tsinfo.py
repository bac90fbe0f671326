"""Parser for ``ethtool -T IFACE`` (``--show-time-stamping``): what the NIC can timestamp.

The format is ethtool's own printer (ethtool.c ``dump_tsinfo`` over the ioctl, netlink/tsinfo.c
``tsinfo_reply_cb`` over netlink): "Time stamping parameters for IFACE:", "Capabilities:" and one
indented line per SOF_TIMESTAMPING_* flag ("hardware-transmit", with "(SOF_TIMESTAMPING_TX_
HARDWARE)" after it in older ethtools), "PTP Hardware Clock: N" or "none", then the
"Hardware Transmit Timestamp Modes:" and "Hardware Receive Filter Modes:" lists ("none" on the
heading line when empty). What the driver's ``get_ts_info`` answers (ethtool_ops): its header
names the interface, so the NIC exists even when nothing else of the paste shows it. Pastes
lose the indentation (a forum's code block) or keep a prompt line: both are read. Garbage
gives an empty result and a warning, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import Parsed, ParseWarning, guarded

SOURCE = "ethtool -T"

_HEADER = re.compile(r"^\s*Time stamping parameters for ([^\s:/]{1,15}):\s*$")
_PHC = re.compile(r"^\s*PTP Hardware Clock:\s*(none|\d{1,5})\s*$")
_SECTIONS = {
    "capabilities": "capabilities",
    "hardware transmit timestamp modes": "tx_modes",
    "hardware receive filter modes": "rx_filters",
}
# a list item: ethtool's name of a flag/mode, then in older ethtools its C name in brackets
_ITEM = re.compile(
    r"^\s*([a-z][a-z0-9-]{1,40})(?:\s+\((?:SOF_TIMESTAMPING|HWTSTAMP)_\w{1,40}\))?\s*$"
)
MAX_TEXT = 64 * 1024  # a real -T output is under 2 KB; a longer paste is read from its start
MAX_ITEMS = 64


@dataclass(frozen=True)
class TsInfo:
    interface: str | None = None  # the header's name
    phc_index: int | None = None  # "PTP Hardware Clock: 0" -> 0 (/dev/ptp0)
    phc_shown: bool = False  # the PHC line was there ("none" leaves phc_index None)
    capabilities: tuple[str, ...] = ()
    tx_modes: tuple[str, ...] = ()
    rx_filters: tuple[str, ...] = ()

    @property
    def hardware_tx(self) -> bool:
        return "hardware-transmit" in self.capabilities

    def as_dict(self) -> dict[str, object]:
        """What the Inventory shows (Nic.timestamping, inspect --json's ``timestamping``)."""
        return {
            "phc": self.phc_index,
            "hardware_transmit": self.hardware_tx,
            "hardware_receive": "hardware-receive" in self.capabilities,
            "software_transmit": "software-transmit" in self.capabilities,
            "tx_modes": list(self.tx_modes),
            "rx_filters": list(self.rx_filters),
        }


def parse_tsinfo(text: str) -> TsInfo:
    interface: str | None = None
    phc: int | None = None
    phc_shown = False
    lists: dict[str, list[str]] = {"capabilities": [], "tx_modes": [], "rx_filters": []}
    section: str | None = None
    for line in text[:MAX_TEXT].splitlines():
        if interface is None and (head := _HEADER.match(line)):
            interface = head.group(1)
            continue
        if (clock := _PHC.match(line)) is not None:
            phc_shown, section = True, None
            phc = None if clock.group(1) == "none" else int(clock.group(1))
            continue
        title, colon, rest = line.strip().partition(":")
        if colon and title.lower() in _SECTIONS:
            section = _SECTIONS[title.lower()]
            if rest.strip() and rest.strip() != "none":  # "Modes: off on" on one line: none so
                section = None
            continue
        if section is not None and (item := _ITEM.match(line)) is not None:
            if len(lists[section]) < MAX_ITEMS:
                lists[section].append(item.group(1))
            continue
        section = None  # anything else ends a list
    return TsInfo(
        interface,
        phc,
        phc_shown,
        tuple(lists["capabilities"]),
        tuple(lists["tx_modes"]),
        tuple(lists["rx_filters"]),
    )


def _parse(text: str) -> Parsed[TsInfo]:
    info = parse_tsinfo(text)
    if info.interface is None and not info.phc_shown:
        if not text.strip():
            return info, [ParseWarning(SOURCE, "the output is empty")]
        return info, [ParseWarning(SOURCE, "no “Time stamping parameters for” header")]
    return info, []


def parse_ethtool_tsinfo(raw: object) -> Parsed[TsInfo]:
    """``(TsInfo, warnings)`` for the inventory's dispatch table; never raises."""
    return guarded(SOURCE, _parse, raw, TsInfo)
