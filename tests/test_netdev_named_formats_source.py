"""resources/kernel_source/netdev_named_formats.json against the kernel source it came from:
exactly what scripts/regen_netdev_named_formats.py generates from the pinned Debian
linux-source-6.1 and -6.12 (fetched once, as tests/test_mdio_bus_names_source.py does)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_netdev_named_formats  # noqa: E402


def test_the_named_format_table_is_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_netdev_named_formats.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "netdev_named_formats.json").read_text(encoding="utf-8"))
    assert shipped["formats"] == regen_netdev_named_formats.table(trees)


def test_the_phc_lines_the_inventory_reads_are_in_both_series() -> None:
    """igb_ptp.c's and ixgbe_ptp.c's (through ixgbe_common.h's e_dev_info macro) formats, 6.1
    and 6.12, the interface's name their only conversion; b53's chip name is not one."""
    formats = json.loads((KS / "netdev_named_formats.json").read_text(encoding="utf-8"))["formats"]
    for fmt in ("added PHC on %s", "removed PHC on %s", "registered PHC device on %s"):
        assert formats[fmt]["name_at"] == 0
        assert formats[fmt]["series"] == ["6.1", "6.12"]
    assert formats["registered PHC device on %s"]["files"] == [
        "drivers/net/ethernet/intel/ixgbe/ixgbe_ptp.c"
    ]
    assert "found switch: %s, rev %i" not in formats
