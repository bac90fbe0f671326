"""resources/kernel_source/mdio_bus_names.json against the kernel source it came from: exactly
what scripts/regen_mdio_bus_names.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_mdio_bus_names  # noqa: E402


def test_the_mdio_bus_name_table_is_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_mdio_bus_names.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "mdio_bus_names.json").read_text(encoding="utf-8"))
    assert shipped["names"] == regen_mdio_bus_names.table(trees)


def test_the_names_the_inventory_reads_are_their_drivers_in_both_series() -> None:
    """fec_main.c's and lan78xx.c's names, both 6.1 and 6.12; lan78xx's id is the USB form."""
    names = json.loads((KS / "mdio_bus_names.json").read_text(encoding="utf-8"))["names"]
    assert names["fec_enet_mii_bus"]["driver"] == "fec"
    assert names["fec_enet_mii_bus"]["series"] == ["6.1", "6.12"]
    assert names["lan78xx-mdiobus"]["id"] == "usb-%03d:%03d"
