"""Walk 24 (s23's leftover): History at 800 x 600 with four runs of one NIC compared: the
"Change (last vs first)" column got 26 pixels, its words one to a line in rows grown tall,
and the last run's column sat behind a horizontal scroll bar. Where the runs leave the change
too little room, it is said under the table, one line per row; the runs' figures wrap between
a number and its unit and every column is in view. A wide window keeps the column."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.run_table import CHANGE_LEAST_CHARS
from tests.gui.history_support import compare_at, history_page, runs_of_one_nic


def test_four_runs_at_800x600_say_the_change_under_the_table(
    window: MainWindow, gui_app: QApplication
) -> None:
    runs_of_one_nic(window, 4)
    compare_at(window, gui_app, 800, 600)
    page = history_page(window)
    table = page.compare_table
    last = table.columnCount() - 1
    assert table.columnCount() == 2 + 4 + 1  # direction, mode, four runs, the change
    assert table.isColumnHidden(last)
    assert not table.horizontalScrollBar().isVisible()  # every run in view
    below = table.change_below
    assert below.isVisible()
    lines = below.text().splitlines()
    assert lines[0] == "Change (last vs first):"
    changes = [table.item(r, last).toolTip() for r in range(table.rowCount())]
    assert len(lines) == 1 + table.rowCount()
    for line, said in zip(lines[1:], changes, strict=True):
        assert line.endswith(f": {said}") and line.startswith(("Pi → PC, ", "PC → Pi, ")), line


def test_a_wide_window_keeps_the_change_column(window: MainWindow, gui_app: QApplication) -> None:
    runs_of_one_nic(window, 4)
    compare_at(window, gui_app, 1800, 1000)
    table = history_page(window).compare_table
    last = table.columnCount() - 1
    assert not table.isColumnHidden(last) and not table.change_below.isVisible()
    least = table.fontMetrics().averageCharWidth() * CHANGE_LEAST_CHARS
    assert table.columnWidth(last) >= least
