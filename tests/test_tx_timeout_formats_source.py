"""The formats of drivers' transmit-timeout handlers (tx_timeout_formats.tsv) are exactly what
scripts/regen_tx_timeout_formats.py generates from the pinned Debian source, and each row's
format is printed in its cited file. Fetches linux-source-6.1 and -6.12 once, as
tests/test_netdev_info_formats_source.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernel_trees import kernel_trees, shipped_rows

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_of_node_formats
import regen_tx_timeout_formats


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = kernel_trees(regen_tx_timeout_formats.GLOBS)
    return roots


def test_the_handler_formats_are_what_the_source_generates(trees: dict[str, Path]) -> None:
    shipped = shipped_rows("tx_timeout_formats.tsv")
    generated = regen_of_node_formats.series_rows(
        {s: regen_tx_timeout_formats.handler_formats(root) for s, root in trees.items()}
    )
    assert shipped == generated
    ixgbe = (
        "initiating\twarn\t6.1,6.12\tdrivers/net/ethernet/intel/ixgbe/ixgbe_main.c\t"
        "initiating reset due to tx timeout"
    )
    assert ixgbe in generated


def test_ixgbe_prints_it_from_its_handler(trees: dict[str, Path]) -> None:
    """ixgbe_main.c: ixgbe_netdev_ops names ixgbe_tx_timeout as .ndo_tx_timeout, which calls
    ixgbe_tx_timeout_reset(), whose body prints the format."""
    for root in trees.values():
        text = (root / "drivers/net/ethernet/intel/ixgbe/ixgbe_main.c").read_text(
            encoding="utf-8", errors="replace"
        )
        assert ".ndo_tx_timeout\t\t= ixgbe_tx_timeout" in text or "= ixgbe_tx_timeout," in text
        handler = regen_tx_timeout_formats.body_of(text, "ixgbe_tx_timeout") or ""
        assert "ixgbe_tx_timeout_reset(" in handler
        reset = regen_tx_timeout_formats.body_of(text, "ixgbe_tx_timeout_reset") or ""
        assert '"initiating reset due to tx timeout\\n"' in reset
