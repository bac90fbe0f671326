"""resources/kernel_source/usb_device_drivers.json against the kernel source it came from:
exactly what scripts/regen_usb_device_drivers.py generates from the pinned Debian
linux-source-6.1 and -6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_usb_device_drivers


def test_the_usb_device_driver_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_usb_device_drivers.GLOBS)
    shipped = shipped_table("usb_device_drivers.json")
    assert shipped["drivers"] == regen_usb_device_drivers.table(trees)


def test_r8152_s_selector_is_named_as_its_macro_spells_it() -> None:
    """r8152.c: .name = MODULENAME "-cfgselector" with #define MODULENAME "r8152" (6.1, 6.12);
    the generic driver is generic.c's "usb"."""
    drivers = shipped_table("usb_device_drivers.json")["drivers"]
    assert drivers["r8152-cfgselector"] == {
        "file": "drivers/net/usb/r8152.c",
        "series": ["6.1", "6.12"],
    }
    assert drivers["usb"]["file"] == "drivers/usb/core/generic.c"
