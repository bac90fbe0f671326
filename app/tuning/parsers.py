"""Parsers for the ethtool outputs tuning reads: `-a` (pause) here, `--show-eee` from the inventory.

`--show-eee` is the inventory's parser too (inventory/parsers/ethtool_eee.py: one parser for
both). The pause format follows ethtool's own printer (ethtool/netlink/pause.c
`pause_reply_cb`: "Autonegotiate:", "RX:", "TX:" with on/off). Garbage gives unknown (None)
values, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sbctune.inventory.parsers.ethtool_eee import Eee, parse_eee

__all__ = ["Eee", "Pause", "parse_eee", "parse_pause"]

_PAUSE = re.compile(r"^\s*(Autonegotiate|RX|TX):\s*(on|off)\s*$", re.MULTILINE)
# ethtool's pause_autoneg_cb: with pause autonegotiation on, what the two ends' advertisements
# resolve to (the pause in force), after the request's own lines
_NEGOTIATED = re.compile(r"^\s*(RX|TX) negotiated:\s*(on|off)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Pause:
    autoneg: bool | None = None
    rx: bool | None = None
    tx: bool | None = None
    rx_negotiated: bool | None = None
    tx_negotiated: bool | None = None


def parse_pause(text: str) -> Pause:
    found = {key: value == "on" for key, value in _PAUSE.findall(text)}
    agreed = {key: value == "on" for key, value in _NEGOTIATED.findall(text)}
    return Pause(found.get("Autonegotiate"), found.get("RX"), found.get("TX"),
                 agreed.get("RX"), agreed.get("TX"))  # fmt: skip
