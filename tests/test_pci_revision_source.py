"""resources/kernel_source/pci_revision_silicon.json is exactly what its script generates from
the pinned Debian source (atlantic's hw_atl_boards[] in 6.1 and 6.12). Fetches the source once,
as tests/test_name_tables_source.py does."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, pinned_packages, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_pci_revision_silicon


def test_the_revision_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_pci_revision_silicon.GLOBS)
    shipped = shipped_table("pci_revision_silicon.json")
    assert shipped["drivers"] == regen_pci_revision_silicon.table(trees)
    assert shipped["packages"] == pinned_packages()
    assert shipped["drivers"]["atlantic"]["1d6a:d107"] == {"01": "A0", "02": "B0"}
