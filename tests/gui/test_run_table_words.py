"""The run table's retransmits column says what was sent again, and its tooltip why it matters
(walk 14: a "Sent again" column = 2580 with no explanation)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.widgets.run_table import RunTable


def test_the_resent_column_is_named_and_explained(gui_app: QApplication) -> None:
    table = RunTable()
    column = RunTable.HEADERS.index("Retransmits")
    item = table.horizontalHeaderItem(column)
    assert item is not None
    assert item.text() == "Resent"
    tip = item.toolTip()
    assert "lost or late" in tip and "many mean a congested or faulty link" in tip
