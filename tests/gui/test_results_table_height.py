"""The Results table is as tall as its rows: no empty stripe under the last row (seen on a
real X server at 800 × 600 and at 1366 × 768, 150 %), but room for the horizontal scroll bar
when the columns are wider than the table, so that the bar never covers the last row."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data
from sbctune.ui.widgets.run_table import CompareTable


def _rows_height(table: CompareTable) -> int:
    rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
    return table.horizontalHeader().height() + 2 * table.frameWidth() + rows + 2


def test_no_stripe_under_the_results_table(window: MainWindow, gui_app: QApplication) -> None:
    load_sample_data(window)
    window.resize(800, 600)
    window.go("results")
    gui_app.processEvents()
    (table,) = window.page("results").findChildren(CompareTable)
    assert table.rowCount() >= 2
    assert table.height() == _rows_height(table)

    table.setFixedWidth(260)  # narrower than its columns: the scroll bar shows
    gui_app.processEvents()
    assert table.horizontalScrollBar().isVisible()
    bar = table.horizontalScrollBar().sizeHint().height()
    assert table.height() == _rows_height(table) + bar
