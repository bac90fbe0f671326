"""A chip named by the version code its driver read and did not know: an older r8152 prints
"r8152 1-1:1.0 (unnamed net_device) (uninitialized): Unknown version 0x6010" and leaves the
device unbound; the newer kernels' own tables name the code's chip (RTL_VER_09, run by
r8153b_init: the RTL8153B), resources/kernel_source/r8152_versions.json by
scripts/regen_r8152_versions.py from 6.1's and 6.12's r8152.c."""

from __future__ import annotations

import functools
import json

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting

_SRC = "dmesg"
_HEX = frozenset("0123456789abcdefABCDEF")


@functools.cache
def _table() -> tuple[str, str, dict[str, dict[str, str]]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "r8152_versions.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        return str(data["driver"]), str(data["message"]), dict(data["versions"])
    except (OSError, ValueError, KeyError, TypeError):
        return "", "", {}


def version_chip_said(event: DmesgEvent, sighting: Sighting) -> Sighting | None:
    """The chip the line's version code names, for the device the line is about."""
    driver, message, versions = _table()
    if not driver or event.driver != driver or (at := event.text.find(message)) < 0:
        return None
    code = event.text[at + len(message) : at + len(message) + 4]
    if len(code) != 4 or not set(code) <= _HEX:
        return None
    row = versions.get(f"0x{code.lower()}")
    if row is None:
        return None
    said = Sighting(list(sighting.keys))
    why = (
        f"{event.text[:200]} (r8152.c: 0x{code.lower()} is {row['version']}, run by "
        f"{row['init']}(); kernels {', '.join(row['series'])})"
    )
    said.add("chip_text", row["chip"], _SRC, why, event.line)
    return said
