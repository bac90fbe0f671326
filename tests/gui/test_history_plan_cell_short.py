"""walk18: a History row's Plan cell grew as tall as the list of tweaks in force (eight
tweaks: a row of five lines at 800 x 600). The cell says the plan and how many tweaks, in a
line or two; its tooltip names every tweak."""

from __future__ import annotations

import dataclasses
import datetime as dt

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QTableWidget

from sbctune.tuning.words import tweak_title
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import PLAN_COLUMN
from sbctune.ui.selftest import load_sample_data

TWEAKS = ["rps-rfs", "xps", "irq-affinity", "cpu-governor-performance", "socket-buffers",
          "nic-rings", "irq-coalescing", "offloads-on"]  # fmt: skip
CELL_MARGIN = 6  # px: Qt's item view pads the text inside its cell


def test_a_run_with_many_tweaks_keeps_a_short_row(
    window: MainWindow, gui_app: QApplication
) -> None:
    load_sample_data(window)
    first = window.records.runs_for_device(window.records.devices()[0].id)[0]
    window.history.save_run(dataclasses.replace(
        first, id=None, tuning_state={"session": "s1", "tweaks": TWEAKS},
        started_at=first.started_at + dt.timedelta(minutes=5)))  # fmt: skip
    window.resize(800, 600)
    window.go("history")
    for _ in range(3):
        gui_app.processEvents()
    table: QTableWidget = window.page("history").table  # type: ignore[attr-defined]
    row = next(r for r in range(table.rowCount())
               if "8 tweaks" in table.item(r, PLAN_COLUMN).text())  # fmt: skip
    item = table.item(row, PLAN_COLUMN)
    width = table.columnWidth(PLAN_COLUMN) - CELL_MARGIN
    need = table.fontMetrics().boundingRect(
        QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), item.text()
    )
    assert need.height() <= 2 * table.fontMetrics().lineSpacing(), item.text()
    assert "with tuning in force: 8 tweaks" in item.text()
    tip = item.toolTip()
    assert all(tweak_title(t) in tip for t in TWEAKS), tip
