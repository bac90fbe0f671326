"""The Inspect page's board card says "version not known" for a Pi whose kernel is unknown (the
lab's pi5-macb), as `inspect` does; the connect line is tests/integration/test_lab_uname_lab.py."""

from __future__ import annotations

from sbctune.inventory.model import Board
from sbctune.ui.widgets.inventory_cards import board_facts


def test_the_board_card_says_the_kernel_version_is_not_known() -> None:
    facts = dict(board_facts(Board()))
    assert facts["Kernel"] == "version not known"
    assert dict(board_facts(Board(kernel="6.12.47+rpt-rpi-v8")))["Kernel"] == "6.12.47+rpt-rpi-v8"
