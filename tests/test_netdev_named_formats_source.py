"""resources/kernel_source/netdev_named_formats.json against the kernel source it came from:
exactly what scripts/regen_netdev_named_formats.py generates from the pinned Debian
linux-source-6.1 and -6.12 (fetched once, as tests/test_mdio_bus_names_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_netdev_named_formats


def test_the_named_format_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_netdev_named_formats.GLOBS)
    shipped = shipped_table("netdev_named_formats.json")
    assert shipped["formats"] == regen_netdev_named_formats.table(trees)


def test_the_phc_lines_the_inventory_reads_are_in_both_series() -> None:
    """igb_ptp.c's and ixgbe_ptp.c's (through ixgbe_common.h's e_dev_info macro) formats, 6.1
    and 6.12, the interface's name their only conversion; b53's chip name is not one."""
    formats = shipped_table("netdev_named_formats.json")["formats"]
    for fmt in ("added PHC on %s", "removed PHC on %s", "registered PHC device on %s"):
        assert formats[fmt]["name_at"] == 0
        assert formats[fmt]["series"] == ["6.1", "6.12"]
    assert formats["registered PHC device on %s"]["files"] == [
        "drivers/net/ethernet/intel/ixgbe/ixgbe_ptp.c"
    ]
    assert "found switch: %s, rev %i" not in formats
