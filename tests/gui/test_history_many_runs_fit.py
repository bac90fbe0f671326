"""Walk 25 (s24's leftover): seven runs of one NIC compared in History at 800 x 600 (and at
150 % on 1366 x 768) still put the last runs behind a horizontal scroll bar: even with every
figure wrapped to its longest word, nine columns do not fit. Where the runs' columns cannot
fit, the table turns: one row per run, one column per measurement (its direction and mode),
and the change as the last row; every run and the change are in view, no sideways scrolling.
A window wide enough keeps the runs as columns."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.run_table import CHANGE_HEADER
from tests.gui.history_support import compare_at, history_page, runs_of_one_nic

RUNS = 7


def _texts(table, row: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [table.item(row, c).text() for c in range(table.columnCount())]


def test_seven_runs_at_800x600_turn_so_every_run_is_in_view(
    window: MainWindow, gui_app: QApplication
) -> None:
    runs_of_one_nic(window, RUNS)
    compare_at(window, gui_app, 800, 600)
    table = history_page(window).compare_table
    assert not table.horizontalScrollBar().isVisible(), "the runs scroll sideways"
    assert table.horizontalHeader().length() <= table.viewport().width()
    # one row per run, then the change; the first column names them
    assert table.rowCount() == RUNS + 1
    runs = [table.item(r, 0).text() for r in range(RUNS)]  # type: ignore[union-attr]
    assert len(set(runs)) == RUNS
    assert table.item(RUNS, 0).text() == CHANGE_HEADER  # type: ignore[union-attr]
    heads = [table.horizontalHeaderItem(c).toolTip() for c in range(1, table.columnCount())]  # type: ignore[union-attr]
    assert heads and all(h.startswith(("Pi → PC, ", "PC → Pi, ", "Both")) or h for h in heads)
    assert any("Mbit/s" in t for t in _texts(table, 0)[1:])  # a run's figures
    assert not table.change_below.isVisible()  # the change is the table's own row


def test_seven_runs_at_150_percent_on_1366x768(window: MainWindow, gui_app: QApplication) -> None:
    """1366 x 768 at QT_SCALE_FACTOR=1.5 is a 910 x 512 window in device-independent pixels:
    the runs fit as columns with the change said below, and the last run's column is as wide
    as the others (stretched to the edge, "802.0 Mbit/s" broke after its slash: "Mbit/", "s")."""
    runs_of_one_nic(window, RUNS)
    compare_at(window, gui_app, 910, 512)
    table = history_page(window).compare_table
    assert not table.horizontalScrollBar().isVisible()
    assert table.horizontalHeader().length() <= table.viewport().width()
    if not table.transposed and table.change_below.isVisible():
        runs = range(2, 2 + RUNS)
        assert table.columnWidth(runs[-1]) == table.columnWidth(runs[-2])


def test_a_wide_window_keeps_runs_as_columns(window: MainWindow, gui_app: QApplication) -> None:
    runs_of_one_nic(window, RUNS)
    compare_at(window, gui_app, 2400, 1000)
    table = history_page(window).compare_table
    assert table.columnCount() == 2 + RUNS + 1  # direction, mode, the runs, the change
    assert table.horizontalHeaderItem(0).text() == "Direction"  # type: ignore[union-attr]
    assert not table.horizontalScrollBar().isVisible()
