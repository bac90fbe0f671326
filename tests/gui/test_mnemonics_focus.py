"""A label's Alt+letter must move the keyboard focus to its field, on every page (found walking
the app on a real X server: Alt+I beside "Host or IP" did nothing, though the mnemonic was
unique; tests/gui/test_keyboard.py checked uniqueness only)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from sbctune.ui.main_window import EXTRA, PATH, MainWindow
from sbctune.ui.selftest import load_sample_data


def _mnemonic(text: str) -> str | None:
    at = text.replace("&&", "").find("&")
    return text.replace("&&", "")[at + 1] if at >= 0 else None


def _lands_on(buddy: QWidget, focused: QWidget | None) -> bool:
    target = buddy.focusProxy() or buddy
    return focused is not None and (focused is target or target.isAncestorOf(focused))


def test_every_label_mnemonic_focuses_its_field(window: MainWindow, gui_app: QApplication) -> None:
    load_sample_data(window)
    missed = []
    for key in (*PATH, *EXTRA):
        window.go(key)
        window.activateWindow()
        gui_app.processEvents()
        page = window.page(key)
        for lab in page.findChildren(QLabel):
            buddy, letter = lab.buddy(), _mnemonic(lab.text())
            if buddy is None or letter is None or not lab.isVisible() or not buddy.isEnabled():
                continue
            window.sidebar.setFocus()
            QTest.keyClick(window, QKeySequence(letter).toString().lower(),
                           Qt.KeyboardModifier.AltModifier)  # fmt: skip
            gui_app.processEvents()
            if not _lands_on(buddy, QApplication.focusWidget()):
                missed.append((key, lab.text()))
    # Connect's "Host or IP" was missed: its buddy was a plain container (label_reaches).
    assert not missed, missed
