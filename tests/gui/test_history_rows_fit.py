"""Walk 15, problem 3: at 800 x 600 the History table was three rows high above an empty page,
and each row's figures were cut ("PC → Pi one …") behind a horizontal scroll bar. Every cell's
text is whole in its cell, nothing scrolls sideways, and the table takes the page's height."""

from __future__ import annotations

import dataclasses
import datetime as dt

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QTableWidget

from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data

CELL_MARGIN = 6  # px: Qt's item view pads the text inside its cell


def _cut_cells(table: QTableWidget) -> list[str]:
    cut = []
    metrics = table.fontMetrics()
    for row in range(table.rowCount()):
        for col in range(1, table.columnCount()):
            item = table.item(row, col)
            if item is None or not item.text():
                continue
            width = table.columnWidth(col) - CELL_MARGIN
            flags = int(Qt.TextFlag.TextWordWrap)
            need = metrics.boundingRect(QRect(0, 0, width, 10_000), flags, item.text())
            if need.width() > width or need.height() > table.rowHeight(row):
                cut.append(f"row {row} col {col}: {item.text()!r}")
    return cut


def test_history_rows_are_whole_at_800x600(window: MainWindow, gui_app: QApplication) -> None:
    load_sample_data(window)
    # As after a Tune & Measure: each tweak's own run, named by the tuning it ran under.
    first = window.records.runs_for_device(window.records.devices()[0].id)[0]
    for i, tweaks in enumerate((["rps-rfs"], ["cpu-governor-performance"], ["rps-rfs", "xps"],
                                ["cpu-governor-performance"], ["rps-rfs"])):  # fmt: skip
        window.history.save_run(dataclasses.replace(
            first, id=None, plan_name="custom", tuning_state={"session": f"s{i}", "tweaks": tweaks},
            started_at=first.started_at + dt.timedelta(minutes=i + 1)))  # fmt: skip
    window.resize(800, 600)
    window.go("history")
    for _ in range(3):
        gui_app.processEvents()
    page = window.page("history")
    table: QTableWidget = page.table  # type: ignore[attr-defined]
    assert table.rowCount() >= 2
    assert table.rowCount() == 7
    assert not table.horizontalScrollBar().isVisible()
    assert not _cut_cells(table), _cut_cells(table)
    # The runs fill the page rather than a 200 px strip over empty space.
    rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
    assert table.viewport().height() >= min(rows, page.viewport().height() // 2)
