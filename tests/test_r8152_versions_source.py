"""resources/kernel_source/r8152_versions.json against the kernel source it came from: exactly
what scripts/regen_r8152_versions.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_r8152_versions


def test_the_r8152_version_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_r8152_versions.GLOBS)
    shipped = shipped_table("r8152_versions.json")
    assert shipped["versions"] == regen_r8152_versions.table(trees)


def test_the_codes_the_inventory_reads_name_their_families() -> None:
    """0x6010 is RTL_VER_09 (r8153b_init) in both series; the RTL8156B's codes run r8156b_init;
    RTL_TEST_01 (0x7010) runs no family and is left out."""
    versions = shipped_table("r8152_versions.json")["versions"]
    assert versions["0x6010"] == {
        "chip": "RTL8153B",
        "init": "r8153b_init",
        "series": ["6.1", "6.12"],
        "version": "RTL_VER_09",
    }
    assert versions["0x7410"]["chip"] == "RTL8156B"
    assert "0x7010" not in versions
