"""Parsers for the ethtool outputs only tuning reads: `--show-eee` and `-a` (pause).

The formats follow ethtool's own printers (ethtool/netlink/eee.c `eee_reply_cb`:
"EEE status: enabled - active | enabled - inactive | disabled | not supported";
ethtool/netlink/pause.c `pause_reply_cb`: "Autonegotiate:", "RX:", "TX:" with on/off).
Garbage gives unknown (None) values, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STATUS = re.compile(r"^\s*EEE status:\s*(.+?)\s*$", re.MULTILINE)
_PAUSE = re.compile(r"^\s*(Autonegotiate|RX|TX):\s*(on|off)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Eee:
    supported: bool | None = None
    enabled: bool | None = None
    active: bool | None = None


@dataclass(frozen=True)
class Pause:
    autoneg: bool | None = None
    rx: bool | None = None
    tx: bool | None = None


def parse_eee(text: str) -> Eee:
    match = _STATUS.search(text)
    if not match:
        return Eee()
    status = match.group(1).lower()
    if status.startswith("not supported"):
        return Eee(supported=False)
    if status.startswith("disabled"):
        return Eee(supported=True, enabled=False, active=False)
    if status.startswith("enabled"):
        return Eee(supported=True, enabled=True, active="inactive" not in status)
    return Eee()


def parse_pause(text: str) -> Pause:
    found = {key: value == "on" for key, value in _PAUSE.findall(text)}
    return Pause(found.get("Autonegotiate"), found.get("RX"), found.get("TX"))
