"""A guard under 30 s typed on the Tune page is not taken silently: the page says the range and
what the guard stays at (walk 14, problem 9d: "20" typed, left, 90 s kept with no word)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow


def test_a_too_short_guard_is_refused_aloud(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.resize(800, 600)
    window.show()
    window.go("tune")
    guard = window.tune_page.guard
    assert "from 30 s to 600 s" in guard.toolTip()
    guard.setFocus()
    guard.selectAll()
    QTest.keyClicks(guard, "20")
    QTest.keyClick(guard, Qt.Key.Key_Return)
    gui_app.processEvents()
    assert guard.value() == 90
    note = guard.note
    assert note.isVisible()
    assert note.text() == "The guard is 30 to 600 s: 20 s was not taken, it stays 90 s."
    # Apply with the 90 s it stayed at (walk 15: the note stayed beside the countdown)
    applied: list[int] = []
    monkeypatch.setattr(window.tune_page.controller, "apply",
                        lambda _ids, seconds, _persist: applied.append(seconds))  # fmt: skip
    window.tune_page._apply()
    gui_app.processEvents()
    assert applied == [90] and not note.isVisible()
    guard.selectAll()
    QTest.keyClicks(guard, "20")
    QTest.keyClick(guard, Qt.Key.Key_Return)
    gui_app.processEvents()
    assert note.isVisible()
    # a value it takes clears the note
    guard.selectAll()
    QTest.keyClicks(guard, "45")
    QTest.keyClick(guard, Qt.Key.Key_Return)
    gui_app.processEvents()
    assert guard.value() == 45 and not note.isVisible()
    window.close()
