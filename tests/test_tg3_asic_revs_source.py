"""resources/kernel_source/tg3_asic_revs.json against the kernel source it came from: exactly
what scripts/regen_tg3_asic_revs.py generates from the pinned Debian linux-source-6.1 and -6.12
(fetched once, as tests/test_r8152_versions_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_tg3_asic_revs


def test_the_tg3_asic_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_tg3_asic_revs.GLOBS)
    shipped = shipped_table("tg3_asic_revs.json")
    assert (shipped["shift"], shipped["revs"]) == regen_tg3_asic_revs.table(trees)


def test_the_revisions_the_inventory_reads_name_their_asics() -> None:
    """0x5719 is ASIC_REV_5719 and 0x57785 ASIC_REV_57765 (the id is not the name) in both
    series; ASIC_REV_USE_PROD_ID_REG (0x0f), a marker, names no chip."""
    table = shipped_table("tg3_asic_revs.json")
    assert table["shift"] == 12
    assert table["revs"]["0x5719"] == {"asic": "5719", "chip": "BCM5719", "series": ["6.1", "6.12"]}
    assert table["revs"]["0x57785"]["asic"] == "57765"
    assert "0x0f" not in table["revs"]
