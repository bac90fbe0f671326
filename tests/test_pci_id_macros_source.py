"""resources/kernel_source/pci_id_macros.json against the kernel source it came from: exactly
what scripts/regen_pci_id_macros.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_mdio_bus_names_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_pci_id_macros


def test_the_pci_id_macro_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_pci_id_macros.GLOBS)
    shipped = shipped_table("pci_id_macros.json")
    assert shipped["dirs"] == regen_pci_id_macros.table(trees)
