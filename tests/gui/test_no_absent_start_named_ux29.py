"""Walk ux29 (800 x 600, Measure again before any tuning): the page said "Once you press Start,
the throughput … are drawn here", while its Start was hidden behind "Go to Tune" and "Measure
as it is". No words on a measure page send the user to a button the page does not show."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.ui.main_window import MainWindow


@pytest.mark.parametrize("key", ["baseline", "again"])
def test_no_words_name_a_start_that_is_not_shown(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    monkeypatch.setattr(window.state, "session", object())  # connected, nothing in force
    window.state.model._changed("tuning")
    window.go(key)
    gui_app.processEvents()
    page = window.baseline_page if key == "baseline" else window.again_page
    if key == "again":
        assert page.as_is_button.isVisibleTo(window), "Measure again asks first"
    start_shown = page.start_button.isVisibleTo(window)
    naming_start = [
        text.text()
        for text in page.findChildren(QLabel)
        if text.isVisibleTo(window) and "press Start" in text.text()
    ]
    assert start_shown or not naming_start, naming_start
