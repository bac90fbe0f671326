"""What the History GUI tests share: the saved runs shown, every row ticked, Compare pressed."""

from __future__ import annotations

import dataclasses
import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage
from sbctune.ui.selftest import load_sample_data


def history_page(window: MainWindow) -> HistoryPage:
    window.go("history")
    page = window.page("history")
    assert isinstance(page, HistoryPage)
    return page


def compare_every_run(page: HistoryPage) -> None:
    """Tick every run in the list and press Compare, as a user comparing them all does."""
    for row in range(page.table.rowCount()):
        item = page.table.item(row, 0)
        assert item is not None
        item.setCheckState(Qt.CheckState.Checked)
    page.compare_button.click()


def runs_of_one_nic(window: MainWindow, count: int) -> None:
    """The sample data's two runs (before, after) of one device, and more of the first until
    `count` runs are saved, a minute apart."""
    load_sample_data(window)
    first = window.records.runs_for_device(window.records.devices()[0].id)[0]
    for i in range(count - 2):
        window.history.save_run(dataclasses.replace(
            first, id=None, started_at=first.started_at + dt.timedelta(minutes=i + 1)))  # fmt: skip


def compare_at(window: MainWindow, app: QApplication, width: int, height: int) -> None:
    """Every run compared in a window of this size, its layout settled."""
    window.resize(width, height)
    page = history_page(window)
    for _ in range(3):
        app.processEvents()
    compare_every_run(page)
    for _ in range(5):
        app.processEvents()
