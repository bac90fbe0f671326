"""What the History GUI tests share: the saved runs shown, every row ticked, Compare pressed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage


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
