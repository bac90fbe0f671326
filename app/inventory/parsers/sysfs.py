"""Single-value sysfs files: ``/sys/class/net/IFACE/*`` and ``/sys/bus/usb/devices/*/speed``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sbctune.wording import counted

from .common import Parsed, ParseWarning, guarded, split_lines

_INT_ATTRS = {"speed", "mtu", "carrier", "tx_queue_len", "ifindex", "carrier_changes", "dev_id"}
_WORD_ATTRS = {
    "duplex": {"full", "half"},
    "operstate": {"up", "down", "dormant", "lowerlayerdown", "notpresent", "testing"},
}


@dataclass
class SysfsValue:
    attribute: str
    value: int | float | str | None = None  # None = unknown
    raw: str = ""


def _one_value(text: str) -> tuple[str | None, str | None]:
    """(value, error) from the text of a single-value file or of ``cat``'s error."""
    lines = [ln.strip() for ln in split_lines(text) if ln.strip()]
    if not lines:
        return None, "the file is empty"
    first = lines[0]
    if first.startswith("cat:") or re.search(
        r"Invalid argument|No such file|Permission denied|Operation not supported", first
    ):
        return None, first
    return first, None


# include/uapi/linux/ethtool.h SPEED_UNKNOWN (-1: link down, no PHY), and what some drivers
# print for it (the same -1 as u32, or u16)
_SPEED_UNKNOWN = frozenset({"-1", "65535", "4294967295"})


def parse_sysfs_net(attribute: str, text: str) -> Parsed[SysfsValue]:
    """``/sys/class/net/IFACE/<attribute>`` (speed, duplex, operstate, mtu, carrier ...).

    ``speed`` of ``-1`` or an "Invalid argument" read (link down) is unknown (``None``).
    """
    source = f"/sys/class/net/*/{attribute}"
    return guarded(
        source, lambda t: _parse_net(attribute, source, t), text, lambda: SysfsValue(attribute)
    )


def _extra_lines(source: str, text: str) -> list[ParseWarning]:
    n = len([ln for ln in split_lines(text) if ln.strip()]) - 1
    if n > 0:
        return [ParseWarning(source, f"{counted(n, 'line')} after the value ignored")]
    return []


def _parse_net(attribute: str, source: str, text: str) -> Parsed[SysfsValue]:
    res, warnings = _parse_net_value(attribute, source, text)
    if res.value is not None or res.raw in {"-1", "unknown"} or not warnings:
        warnings = warnings + _extra_lines(source, text)
    return res, warnings


def _parse_net_value(attribute: str, source: str, text: str) -> Parsed[SysfsValue]:
    res = SysfsValue(attribute, raw=text.strip())
    value, error = _one_value(text)
    if value is None:
        return res, [ParseWarning(source, f"could not be read ({error}); value unknown")]
    if attribute in _INT_ATTRS:
        if re.fullmatch(r"-?\d+", value):
            number = int(value)
            if attribute == "speed" and value in _SPEED_UNKNOWN:
                return res, []
            if attribute == "speed" and number < 0:
                # ethtool.h has SPEED_UNKNOWN (-1) only: any other negative is not a speed
                return res, [
                    ParseWarning(source, f"not a link speed ({value[:40]!r}); value unknown")
                ]
            res.value = number
            return res, []
        return res, [ParseWarning(source, f"not a number ({value[:40]!r}); value unknown")]
    if attribute in _WORD_ATTRS:
        word = value.lower()
        if word in _WORD_ATTRS[attribute]:
            res.value = word
            return res, []
        if word == "unknown":
            return res, []
        return res, [ParseWarning(source, f"unexpected value {value[:40]!r}; value unknown")]
    res.value = value
    return res, []


def parse_usb_speed(text: str) -> Parsed[SysfsValue]:
    """``/sys/bus/usb/devices/X/speed``: ``480``, ``5000``, ``1.5`` ... (Mbit/s)."""
    source = "/sys/bus/usb/devices/*/speed"
    return guarded(source, lambda t: _parse_usb(source, t), text, lambda: SysfsValue("speed"))


def _parse_usb(source: str, text: str) -> Parsed[SysfsValue]:
    res, warnings = _parse_usb_value(source, text)
    if res.value is not None:
        warnings = warnings + _extra_lines(source, text)
    return res, warnings


def _parse_usb_value(source: str, text: str) -> Parsed[SysfsValue]:
    res = SysfsValue("speed", raw=text.strip())
    value, error = _one_value(text)
    if value is None:
        return res, [ParseWarning(source, f"could not be read ({error}); value unknown")]
    if re.fullmatch(r"\d+(?:\.\d+)?", value):
        number = float(value)
        res.value = int(number) if number.is_integer() else number
        return res, []
    if value.lower() == "unknown":
        return res, []
    return res, [ParseWarning(source, f"not a speed ({value[:40]!r}); value unknown")]
