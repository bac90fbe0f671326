"""resources/kernel_source/no_queue_drivers.json against the kernel source it came from: exactly
what scripts/regen_no_queue_drivers.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_no_queue_drivers


def test_the_no_queue_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_no_queue_drivers.GLOBS)
    shipped = shipped_table("no_queue_drivers.json")
    assert shipped["files"] == regen_no_queue_drivers.table(trees)
