"""The lab's power and thermal readings: the firmware's throttle flags and the SoC temperature.

Inside the lab they appear where a Raspberry Pi OS kernel shows them (``nsinit`` mounts them):

- ``/sys/devices/platform/soc/soc:firmware/get_throttled``: raspberrypi/linux
  drivers/firmware/raspberrypi.c, ``get_throttled_show()`` prints the last value of the
  firmware's GET_THROTTLED property as ``sprintf(buf, "%x\\n", ...)``: lower-case hex, no
  ``0x``. Bits 0-3 are "now" (under-voltage, arm frequency capped, throttled, soft temperature
  limit), bits 16-19 "has occurred" (Raspberry Pi documentation, vcgencmd get_throttled);
- ``/sys/class/thermal/thermal_zone0/{temp,type}``: millidegrees Celsius as ``%d\\n``
  (the kernel's thermal sysfs ABI) and ``cpu-thermal``, the Pi's zone name.

The values live in ``LAB_DIR/power.json`` (``{"throttled": int, "temp_mc": int | null}``). The
knobs file system reads that file at every read, so a test (on the host, as root) changes them
mid-run with :func:`set_power`; a profile sets the starting values in lab.toml::

    [power]
    throttled = "0x50005"   # under-voltage and throttled now, and both have occurred
    temp_c = 62.5           # optional: without it the thermal zone reads fail (no sensor)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POWER_STATE = "power.json"
# The only bits the firmware defines (see the module docstring).
KNOWN_BITS = 0x000F000F
ZONE_TYPE = "cpu-thermal"
_HEX = re.compile(r"^(0x)?[0-9a-fA-F]{1,8}$")
MIN_TEMP_C = -40.0
MAX_TEMP_C = 125.0  # the SoC sensors' range; beyond it a value cannot be real


class PowerValueError(ValueError):
    """A throttle value or temperature that a real Pi cannot report."""


def parse_throttled(value: object) -> int:
    """``"0x50005"`` / ``"50005"`` / ``327685`` -> 327685; only the firmware's defined bits."""
    if isinstance(value, bool):
        raise PowerValueError(f"{value!r} is not a get_throttled value")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _HEX.match(value.strip()):
        number = int(value.strip().lower().removeprefix("0x"), 16)
    else:
        raise PowerValueError(f'{value!r} is not a get_throttled value (e.g. "0x50005")')
    if number < 0 or number & ~KNOWN_BITS:
        raise PowerValueError(
            f"0x{number:x} sets bits the firmware does not define "
            "(0x1 under-voltage, 0x2 arm freq capped, 0x4 throttled, 0x8 soft temp limit; "
            "the same << 16 for 'has occurred')"
        )
    return number


def temp_millidegrees(celsius: object) -> int:
    if isinstance(celsius, bool) or not isinstance(celsius, (int, float)):
        raise PowerValueError(f"{celsius!r} is not a temperature in °C")
    if not MIN_TEMP_C <= float(celsius) <= MAX_TEMP_C:
        raise PowerValueError(f"{celsius} °C is outside what the SoC's sensor reports")
    return round(float(celsius) * 1000)


@dataclass(frozen=True)
class PowerState:
    throttled: int = 0  # a healthy Pi reads "0"
    temp_mc: int | None = None  # None: no thermal sensor value to show

    def to_json(self) -> dict[str, Any]:
        return {"throttled": self.throttled, "temp_mc": self.temp_mc}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PowerState:
        temp = data.get("temp_mc")
        return cls(
            throttled=parse_throttled(data.get("throttled", 0)),
            temp_mc=int(temp) if isinstance(temp, int) and not isinstance(temp, bool) else None,
        )

    # The kernel's formats (see the module docstring).
    def get_throttled_text(self) -> str:
        return f"{self.throttled:x}\n"

    def temp_text(self) -> str | None:
        return None if self.temp_mc is None else f"{self.temp_mc}\n"


def parse_power_table(table: Mapping[str, Any]) -> PowerState:
    """lab.toml's ``[power]`` table (keys ``throttled``, ``temp_c``)."""
    unknown = set(table) - {"throttled", "temp_c"}
    if unknown:
        raise PowerValueError(
            f"unknown {'key' if len(unknown) == 1 else 'keys'} {sorted(unknown)} "
            "(allowed: throttled, temp_c)"
        )
    temp = table.get("temp_c")
    return PowerState(
        throttled=parse_throttled(table.get("throttled", 0)),
        temp_mc=None if temp is None else temp_millidegrees(temp),
    )


def read_state(path: Path) -> PowerState:
    """The current values; a missing or half-written file reads as a healthy Pi."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return PowerState.from_json(data) if isinstance(data, dict) else PowerState()
    except (OSError, ValueError):
        return PowerState()


def write_state(path: Path, state: PowerState) -> None:
    """Atomically, so a reader in the lab never sees half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state.to_json()), encoding="utf-8")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


_UNSET: Any = object()


def set_power(
    state_dir: str | Path, *, throttled: object = _UNSET, temp_c: object = _UNSET
) -> None:
    """Change what a running lab reports (``state_dir``: ``LabInfo.state_dir``).

    ``throttled``: e.g. ``"0x50005"``; ``temp_c``: °C, or None for no sensor value.
    """
    path = Path(state_dir) / POWER_STATE
    now = read_state(path)
    new = PowerState(
        throttled=now.throttled if throttled is _UNSET else parse_throttled(throttled),
        temp_mc=(
            now.temp_mc
            if temp_c is _UNSET
            else None
            if temp_c is None
            else temp_millidegrees(temp_c)
        ),
    )
    write_state(path, new)
