"""``vcgencmd get_throttled``, ``measure_temp`` and ``measure_clock``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines

_BITS = {
    0: "under_voltage_now",
    1: "arm_freq_capped_now",
    2: "throttled_now",
    3: "soft_temp_limit_now",
    16: "under_voltage_occurred",
    17: "arm_freq_capped_occurred",
    18: "throttled_occurred",
    19: "soft_temp_limit_occurred",
}


@dataclass
class Throttled:
    raw: int | None = None
    under_voltage_now: bool | None = None
    arm_freq_capped_now: bool | None = None
    throttled_now: bool | None = None
    soft_temp_limit_now: bool | None = None
    under_voltage_occurred: bool | None = None
    arm_freq_capped_occurred: bool | None = None
    throttled_occurred: bool | None = None
    soft_temp_limit_occurred: bool | None = None

    def flags(self) -> list[str]:
        """Names of the bits that are set, in bit order."""
        return [name for name in _BITS.values() if getattr(self, name)]

    def as_dict(self) -> dict[str, bool | None]:
        return {name: getattr(self, name) for name in _BITS.values()}


def decode_throttled(value: int) -> Throttled:
    t = Throttled(raw=value)
    for bit, name in _BITS.items():
        setattr(t, name, bool(value >> bit & 1))
    return t


# The conditions by their "now" bit; bit + 16 is the same condition's "has occurred".
THROTTLE_EVENTS = {
    0x1: "under-voltage",
    0x2: "arm frequency capped",
    0x4: "throttled",
    0x8: "soft temperature limit",
}


def throttle_events(value: int) -> list[str]:
    """The conditions a get_throttled value reports, now or as having occurred, in bit order."""
    both = (value | value >> 16) & 0xF
    return [name for bit, name in THROTTLE_EVENTS.items() if both & bit]


def _vc_errors(source: str, lines: list[str]) -> list[ParseWarning]:
    out = []
    for ln in lines:
        if re.search(r"VCHI|failed|error|not found|Permission denied", ln, re.IGNORECASE):
            out.append(ParseWarning(source, f"vcgencmd reported: {ln.strip()}"))
    return out


def parse_get_throttled(text: str) -> Parsed[Throttled]:
    """``throttled=0x50005`` → decoded flags (bits 0-3 now, 16-19 since boot)."""
    return guarded("vcgencmd get_throttled", _parse_get_throttled, text, Throttled)


def _parse_get_throttled(text: str) -> Parsed[Throttled]:
    lines = [ln for ln in split_lines(text) if not is_noise(ln)]
    for i, ln in enumerate(lines):
        m = re.match(r"^\s*throttled=(0x[0-9a-fA-F]+|\d+)\s*$", ln)
        if m:
            raw = m.group(1)
            value = int(raw, 16) if raw.lower().startswith("0x") else int(raw)
            others = len(lines) - 1
            return decode_throttled(value), finish(
                "vcgencmd get_throttled",
                text,
                1,
                others,
                _vc_errors("vcgencmd get_throttled", lines[:i]),
            )
    return Throttled(), finish(
        "vcgencmd get_throttled", text, 0, len(lines), _vc_errors("vcgencmd get_throttled", lines)
    )


@dataclass
class Temperature:
    celsius: float | None = None


def parse_measure_temp(text: str) -> Parsed[Temperature]:
    """``temp=39.2'C``."""
    return guarded("vcgencmd measure_temp", _parse_measure_temp, text, Temperature)


def _parse_measure_temp(text: str) -> Parsed[Temperature]:
    lines = [ln for ln in split_lines(text) if not is_noise(ln)]
    for ln in lines:
        m = re.match(r"^\s*temp=(-?\d+(?:\.\d+)?)\s*['°]?C\s*$", ln)
        if m:
            return Temperature(float(m.group(1))), finish(
                "vcgencmd measure_temp", text, 1, len(lines) - 1
            )
    return Temperature(), finish(
        "vcgencmd measure_temp", text, 0, len(lines), _vc_errors("vcgencmd measure_temp", lines)
    )


@dataclass
class Clock:
    clock_id: int | None = None
    hz: int | None = None

    @property
    def mhz(self) -> float | None:
        return self.hz / 1e6 if self.hz is not None else None


def parse_measure_clock(text: str) -> Parsed[Clock]:
    """``frequency(48)=1800000000``."""
    return guarded("vcgencmd measure_clock", _parse_measure_clock, text, Clock)


def _parse_measure_clock(text: str) -> Parsed[Clock]:
    lines = [ln for ln in split_lines(text) if not is_noise(ln)]
    for ln in lines:
        m = re.match(r"^\s*frequency\((\d+)\)=(\d+)\s*$", ln)
        if m:
            return Clock(int(m.group(1)), int(m.group(2))), finish(
                "vcgencmd measure_clock", text, 1, len(lines) - 1
            )
    return Clock(), finish(
        "vcgencmd measure_clock", text, 0, len(lines), _vc_errors("vcgencmd measure_clock", lines)
    )
