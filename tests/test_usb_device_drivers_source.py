"""resources/kernel_source/usb_device_drivers.json against the kernel source it came from:
exactly what scripts/regen_usb_device_drivers.py generates from the pinned Debian
linux-source-6.1 and -6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_usb_device_drivers  # noqa: E402


def test_the_usb_device_driver_table_is_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_usb_device_drivers.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "usb_device_drivers.json").read_text(encoding="utf-8"))
    assert shipped["drivers"] == regen_usb_device_drivers.table(trees)


def test_r8152_s_selector_is_named_as_its_macro_spells_it() -> None:
    """r8152.c: .name = MODULENAME "-cfgselector" with #define MODULENAME "r8152" (6.1, 6.12);
    the generic driver is generic.c's "usb"."""
    drivers = json.loads((KS / "usb_device_drivers.json").read_text(encoding="utf-8"))["drivers"]
    assert drivers["r8152-cfgselector"] == {
        "file": "drivers/net/usb/r8152.c",
        "series": ["6.1", "6.12"],
    }
    assert drivers["usb"]["file"] == "drivers/usb/core/generic.c"
