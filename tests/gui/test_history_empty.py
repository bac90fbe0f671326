"""Found walking the app as a new user: History showed an empty grid and nothing else. It says
why it is empty and what fills it; the words go once runs are there."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data


def test_an_empty_history_says_what_fills_it(window: MainWindow, gui_app: QApplication) -> None:
    window.go("history")
    gui_app.processEvents()
    page = window.page("history")
    empty = page.empty  # type: ignore[attr-defined]
    assert empty.isVisible() and "measure a Baseline" in empty.text()
    load_sample_data(window)
    window.go("settings")
    window.go("history")
    gui_app.processEvents()
    assert page.table.rowCount() > 0 and empty.isHidden()  # type: ignore[attr-defined]
