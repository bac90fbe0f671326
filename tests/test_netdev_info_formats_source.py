"""The interface info-level formats of drivers/net/ethernet (netdev_info_formats.tsv) are exactly
what scripts/regen_netdev_info_formats.py generates from the pinned Debian source. Fetches
linux-source-6.1 and -6.12 once, as tests/test_name_tables_source.py does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_netdev_info_formats  # noqa: E402


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots, _ = kernel_source.pinned_trees(regen_netdev_info_formats.GLOBS, KS / "VERSION.json")
    return roots


def test_the_interface_info_formats_are_what_the_source_generates(
    trees: dict[str, Path],
) -> None:
    shipped = (KS / "netdev_info_formats.tsv").read_text(encoding="utf-8").splitlines()[1:]
    generated = regen_netdev_info_formats.table_lines(trees)
    assert shipped == generated
    ag71xx = (
        "Atheros\tinfo\t6.1,6.12\tdrivers/net/ethernet/atheros/ag71xx.c\t"
        "Atheros AG71xx at 0x%08lx, irq %d, mode:%s"
    )
    assert ag71xx in generated
