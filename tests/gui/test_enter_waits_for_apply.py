"""Enter walks the path through Tune too (walk 17, on the real X server): "Next: Tune" lands
while the page still reads the tweaks, its Apply disabled, so the focus went to the page and,
once Apply was enabled, Enter pressed nothing. Now Apply takes the focus when it is enabled,
unless the user has moved the focus meanwhile."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage


def _on_tune_while_reading(window: MainWindow, app: QApplication) -> TunePage:
    window.show()
    window.activateWindow()
    app.processEvents()
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    tune.apply_button.setEnabled(False)  # the tweaks are still being read
    window._follow_next("tune")
    app.processEvents()
    assert not tune.apply_button.hasFocus()
    return tune


def test_apply_takes_the_focus_once_enabled_so_enter_applies(
    window: MainWindow, gui_app: QApplication
) -> None:
    tune = _on_tune_while_reading(window, gui_app)
    pressed: list[bool] = []
    tune.apply_button.clicked.connect(lambda: pressed.append(True))
    tune.apply_button.setEnabled(True)  # the tweaks are read
    gui_app.processEvents()
    assert tune.apply_button.hasFocus()
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert pressed == [True]


def test_a_user_who_moved_on_keeps_the_focus(window: MainWindow, gui_app: QApplication) -> None:
    tune = _on_tune_while_reading(window, gui_app)
    tune.reload_button.setEnabled(True)
    tune.reload_button.setFocus()  # the user tabbed or clicked elsewhere meanwhile
    gui_app.processEvents()
    tune.apply_button.setEnabled(True)
    gui_app.processEvents()
    assert not tune.apply_button.hasFocus()
