"""resources/kernel_source/wwan_usb_ids.json against the kernel source it came from: exactly
what scripts/regen_wwan_ids.py generates from the pinned Debian linux-source-6.1 and -6.12,
its ID pairs and its usb-serial modem drivers' port names (gaps25: "option1", option.c's struct
usb_serial_driver .driver.name, is the name the USB serial core prints a port's removal under)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_wwan_ids  # noqa: E402


def test_the_wwan_table_is_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_wwan_ids.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "wwan_usb_ids.json").read_text(encoding="utf-8"))
    assert shipped["ids"] == regen_wwan_ids.build(trees)
    assert shipped["serial_drivers"] == regen_wwan_ids.serial_drivers(trees)


def test_the_modem_port_names_are_the_serial_drivers_own() -> None:
    serial = json.loads((KS / "wwan_usb_ids.json").read_text(encoding="utf-8"))["serial_drivers"]
    assert serial["option1"] == {
        "module": "option",
        "description": "GSM modem (1-port)",
        "file": "drivers/usb/serial/option.c",
    }
    assert {row["module"] for row in serial.values()} == {"option", "qcserial", "sierra"}
