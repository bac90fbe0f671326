"""resources/kernel_source/wwan_usb_ids.json against the kernel source it came from: exactly
what scripts/regen_wwan_ids.py generates from the pinned Debian linux-source-6.1 and -6.12,
its ID pairs and its usb-serial modem drivers' port names (gaps25: "option1", option.c's struct
usb_serial_driver .driver.name, is the name the USB serial core prints a port's removal under)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_wwan_ids


def test_the_wwan_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_wwan_ids.GLOBS)
    shipped = shipped_table("wwan_usb_ids.json")
    assert shipped["ids"] == regen_wwan_ids.build(trees)
    assert shipped["serial_drivers"] == regen_wwan_ids.serial_drivers(trees)


def test_the_modem_port_names_are_the_serial_drivers_own() -> None:
    serial = shipped_table("wwan_usb_ids.json")["serial_drivers"]
    assert serial["option1"] == {
        "module": "option",
        "description": "GSM modem (1-port)",
        "file": "drivers/usb/serial/option.c",
    }
    assert {row["module"] for row in serial.values()} == {"option", "qcserial", "sierra"}
