"""Parser for ``ethtool --show-eee IFACE``: Energy-Efficient Ethernet's state.

One parser for the inventory and the tuning planner (tuning imports it from here). The format
is ethtool's own printer (ethtool/netlink/eee.c ``eee_reply_cb``; ioctl: ethtool.c
``dump_eee``): "EEE settings for IFACE:", then "EEE status: enabled - active | enabled -
inactive | disabled | not supported", "Tx LPI: disabled | N (us)" and the supported, advertised
and link partner's EEE link modes. A driver without ``get_eee`` makes ethtool print "Cannot get
EEE settings: ..." or "netlink error: Operation not supported": unknown, not unreadable.
Garbage gives unknown (None) values, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import Parsed, ParseWarning, guarded

SOURCE = "ethtool --show-eee"

_STATUS = re.compile(r"^\s*EEE status:\s*(.+?)\s*$", re.MULTILINE)
# "Tx LPI: disabled" or "Tx LPI: 600 (us)"; a u32 in the kernel (ethtool_eee.tx_lpi_timer)
_TX_LPI = re.compile(r"^\s*Tx LPI:\s*(disabled|(\d{1,10}) \(us\))\s*$", re.MULTILINE)
_REFUSED = re.compile(
    r"^\s*(?:Cannot get EEE settings|netlink error)\b.{0,200}$", re.MULTILINE | re.IGNORECASE
)
MAX_TEXT = 64 * 1024  # a real --show-eee is under 1 KB; a longer paste is read from its start


@dataclass(frozen=True)
class Eee:
    supported: bool | None = None
    enabled: bool | None = None
    active: bool | None = None
    tx_lpi: bool | None = None  # "Tx LPI: disabled" -> False, "Tx LPI: 600 (us)" -> True
    tx_lpi_us: int | None = None  # the LPI timer shown, in microseconds

    def as_dict(self) -> dict[str, bool | int | None]:
        """What the Inventory shows (Nic.eee, inspect --json's ``eee``)."""
        return {
            "supported": self.supported,
            "enabled": self.enabled,
            "active": self.active,
            "tx_lpi": self.tx_lpi,
            "tx_lpi_us": self.tx_lpi_us,
        }


def parse_eee(text: str) -> Eee:
    text = text[:MAX_TEXT]
    match = _STATUS.search(text)
    if not match:
        return Eee()
    status = match.group(1).lower()
    if status.startswith("not supported"):
        return Eee(supported=False)
    lpi = _TX_LPI.search(text)
    tx_lpi = None if lpi is None else lpi.group(1) != "disabled"
    tx_lpi_us = int(lpi.group(2)) if lpi and lpi.group(2) else None
    if status.startswith("disabled"):
        return Eee(True, False, False, tx_lpi, tx_lpi_us)
    if status.startswith("enabled"):
        return Eee(True, True, "inactive" not in status, tx_lpi, tx_lpi_us)
    return Eee()


def _parse(text: str) -> Parsed[Eee]:
    eee = parse_eee(text)
    if eee.supported is not None or not text.strip():
        warnings = [] if text.strip() else [ParseWarning(SOURCE, "the output is empty")]
        return eee, warnings
    if _REFUSED.search(text[:MAX_TEXT]):
        return eee, []  # the driver has no get_eee (or refused it): EEE unknown, said as such
    return eee, [ParseWarning(SOURCE, "no “EEE status:” line: EEE unknown")]


def parse_show_eee(raw: object) -> Parsed[Eee]:
    """``(Eee, warnings)`` for the inventory's dispatch table; never raises."""
    return guarded(SOURCE, _parse, raw, Eee)
