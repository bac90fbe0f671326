"""The status bar's right-hand text keeps clear of the window's edge (s30 walk, maximised at
800 x 600: "Connected: pi@lbox (pi@198.18.0.2)  Tuning on trial: reverts in 61 s unless kept"
ran to the last pixel, its "t" touching the edge). With a size grip the grip stands there;
without one (a maximised window, or a grip turned off) the bar keeps a gap of its own."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QSizeGrip

from sbctune.ui.main_window import MainWindow

GUARD = "Tuning on trial: reverts in 61 s unless kept"


def _guard_shown(window: MainWindow, gui_app: QApplication) -> None:
    window.connection_label.setText("Connected: pi@lbox (pi@198.18.0.2)")
    window.guard_label.setText(GUARD)
    window.guard_label.show()
    for _ in range(5):
        gui_app.processEvents()


def _text_right(window: MainWindow) -> int:
    """The x just past the guard's last drawn pixel, in the bar's coordinates; the label
    holds its whole text (nothing cut)."""
    label = window.guard_label
    advance = label.fontMetrics().horizontalAdvance(GUARD)
    assert label.contentsRect().width() >= advance
    return label.x() + label.contentsRect().left() + advance


@pytest.mark.parametrize("how", ["maximised", "no grip"])
def test_the_guard_countdown_keeps_off_the_edge_without_a_grip(
    window: MainWindow, gui_app: QApplication, how: str
) -> None:
    window.resize(800, 600)
    if how == "maximised":
        window.showMaximized()
    else:
        window.statusBar().setSizeGripEnabled(False)
        window.show()
    _guard_shown(window, gui_app)
    bar = window.message_bar
    assert bar.width() - _text_right(window) >= 6, (bar.width(), _text_right(window))
    window.showNormal()
    window.close()


def test_with_a_grip_the_countdown_ends_before_it(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(800, 600)
    window.show()
    _guard_shown(window, gui_app)
    (grip,) = window.message_bar.findChildren(QSizeGrip)
    assert grip.isVisible()
    assert grip.x() - _text_right(window) >= 6
    window.close()
