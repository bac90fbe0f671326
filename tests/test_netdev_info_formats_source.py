"""The interface info-level formats of drivers/net/ethernet (netdev_info_formats.tsv) are exactly
what scripts/regen_netdev_info_formats.py generates from the pinned Debian source. Fetches
linux-source-6.1 and -6.12 once, as tests/test_name_tables_source.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernel_trees import kernel_trees, shipped_rows

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_netdev_info_formats


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = kernel_trees(regen_netdev_info_formats.GLOBS)
    return roots


def test_the_interface_info_formats_are_what_the_source_generates(
    trees: dict[str, Path],
) -> None:
    shipped = shipped_rows("netdev_info_formats.tsv")
    generated = regen_netdev_info_formats.table_lines(trees)
    assert shipped == generated
    ag71xx = (
        "Atheros\tinfo\t6.1,6.12\tdrivers/net/ethernet/atheros/ag71xx.c\t"
        "Atheros AG71xx at 0x%08lx, irq %d, mode:%s"
    )
    assert ag71xx in generated
