"""The walk of session 11: at 800 x 600 the Baseline page's "Figures of this run" needed
sideways scrolling to reach its "Complete" column. In the window at that size, with a thorough
run's rows (the longest mode words) and its UDP tests, every column shows."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord, TestRecord, UdpRecord
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage


def _run(udp: bool) -> RunRecord:
    tests = [
        TestRecord(direction=d, mode=m, mean_mbps=936.4, min_mbps=901.2, max_mbps=941.7,
                   retransmits=12345, complete=m != "full")
        for m in ("half", "full", "full_throttled") for d in ("pi_to_pc", "pc_to_pi")
    ]  # fmt: skip
    return RunRecord(
        device_id=1, started_at=dt.datetime.now(dt.timezone.utc), plan_name="thorough",
        tests=tests,
        udp=[UdpRecord("pi_to_pc", 500.0, 499.9, 0.147, 3, 103440, 0.029, 2, True),
             UdpRecord("pc_to_pi", 500.0, 480.1, 1.031, 4096, 103440, 3.96, 0, False)]
        if udp else [],
    )  # fmt: skip


@pytest.mark.parametrize("udp", [False, True])
def test_figures_of_this_run_fit_at_800_x_600(
    window: MainWindow, gui_app: QApplication, udp: bool
) -> None:
    window.resize(800, 600)
    window.go("baseline")
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    page.table.show_run(_run(udp), "Mbit/s")
    page.results_card.show()
    for _ in range(3):
        gui_app.processEvents()
    table = page.table
    header = table.horizontalHeader()
    assert window.width() <= 800
    needed = header.length()
    assert needed <= table.viewport().width(), (needed, table.viewport().width())
    complete = header.visualIndex(table.columnCount() - 1)
    right = header.sectionViewportPosition(complete) + header.sectionSize(complete)
    assert right <= table.viewport().width()
    assert header.sectionSize(complete) >= table.fontMetrics().horizontalAdvance("yes")
    # nothing cut off: a cell narrower than its text wraps onto more lines, taller
    for row in range(table.rowCount()):
        for col in range(table.columnCount()):
            item = table.item(row, col)
            if item is None or table.isColumnHidden(col) or not item.text():
                continue
            words = max(item.text().split(), key=table.fontMetrics().horizontalAdvance)
            assert table.fontMetrics().horizontalAdvance(words) <= header.sectionSize(col), (
                item.text(),
                header.sectionSize(col),
            )
