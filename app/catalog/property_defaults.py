"""The lines a network driver prints at error or warning level when an optional firmware
property is absent and it goes on with its own default (``resources/kernel_source/
property_defaults.json``, generated from Debian's linux-source-6.1 and 6.12 by
``scripts/regen_property_defaults.py``): dwmac-rk.c rk_gmac_setup()'s "Can not read property:
rx_delay." and "set rx_delay to 0x%x" (dev_err, then the probe goes on with 0x10).

Looked up by the format the kernel-message table matched and the files that print it: one
dictionary look-up per line."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class PropertyDefault:
    """One default-taken format: the property, where it is read, the level it is printed at."""

    property: str
    read: str  # the reading call: of_property_read_u32 (device tree), device_property_read_*
    file: str
    function: str
    level: str
    series: tuple[str, ...]


@functools.cache
def _rows() -> dict[tuple[str, str], PropertyDefault]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "property_defaults.json")
        rows = json.loads(path.read_text(encoding="utf-8")).get("defaults", [])
        return {
            (str(r["file"]), str(r["format"])): PropertyDefault(
                str(r["property"]),
                str(r["read"]),
                str(r["file"]),
                str(r["function"]),
                str(r["level"]),
                tuple(str(s) for s in r["series"]),
            )
            for r in rows
        }
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return {}


def firmware_words(row: PropertyDefault) -> str:
    """Where the property was looked for: of_*() reads the device tree; device_*() and
    fwnode_*() read the device's firmware node, a device tree's or ACPI's (drivers/base/
    property.c)."""
    return "the device tree" if row.read.startswith("of_") else "the firmware (device tree or ACPI)"


def default_taken(fmt: str, files: Iterable[str]) -> PropertyDefault | None:
    """The default-taken row of format `fmt` printed by one of `files` (None: the format is not
    printed where a driver takes a default, or not by those files)."""
    rows = _rows()
    for file in files:
        if found := rows.get((file, fmt)):
            return found
    return None
