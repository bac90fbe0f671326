"""The status bar's refusal "A measurement is running…" lasts while that measurement runs, not
for the rest of the session, and at 800 x 600 with the guard's countdown on the right it is cut
with "…" (whole text in the tooltip) rather than clipped mid-word under the right-hand texts
(walk 14, problem 3: a17 onwards, a23, a24)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.ui.controllers.measurement import MeasureController
from sbctune.ui.main_window import MainWindow
from sbctune.ui.main_window_flow import ONE_AT_A_TIME


@pytest.mark.parametrize("running", ["baseline", "again"])
def test_refusal_goes_when_the_measurement_ends(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, running: str
) -> None:
    busy = getattr(window, running)
    monkeypatch.setattr(MeasureController, "running", property(lambda self: self is busy))
    monkeypatch.setattr(window.baseline_page, "start", lambda: None)
    window.go("inspect")
    window._measure_only()
    assert window.statusBar().currentMessage() == ONE_AT_A_TIME
    busy.cancelled.emit()  # (finished, failed and stopped early are wired the same way)
    assert window.statusBar().currentMessage() == ""


def test_other_messages_stay_when_a_measurement_ends(window: MainWindow) -> None:
    window.statusBar().showMessage("Warning: something else", 20000)
    window.baseline.cancelled.emit()
    assert window.statusBar().currentMessage() == "Warning: something else"


def test_refusal_fits_next_to_the_guard_at_800(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.resize(800, 600)
    window.show()
    window.connection_label.setText("Connected: pi@lbox (pi@198.18.0.2)")
    window.guard_label.setText("Tuning on trial: reverts in 89 s unless kept")
    window.guard_label.show()
    window.statusBar().showMessage(ONE_AT_A_TIME, 30000)
    for _ in range(5):
        gui_app.processEvents()
    bar = window.message_bar
    shown = bar.shown_message()
    room = bar.message_rect()
    # what is drawn ends before the first text on the right and fits its room
    assert room.right() < window.guard_label.x()
    assert room.right() < window.connection_label.x() or not window.connection_label.isVisible()
    assert bar.fontMetrics().horizontalAdvance(shown) <= room.width()
    if shown != ONE_AT_A_TIME:
        assert shown.endswith("…") and bar.toolTip() == ONE_AT_A_TIME
    # the connection line gives way while the message shows, and comes back after
    assert window.connection_label.width() <= window.connection_label.minimumSizeHint().width()
    window.statusBar().clearMessage()
    for _ in range(5):
        gui_app.processEvents()
    assert window.connection_label.width() > window.connection_label.minimumSizeHint().width()
    window.close()


def test_a_short_message_leaves_the_connection_line_whole(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(1100, 700)
    window.show()
    window.connection_label.setText("Connected: pi@lbox (pi@198.18.0.2)")
    window.statusBar().showMessage("Baseline measurement: started.", 10000)
    for _ in range(5):
        gui_app.processEvents()
    assert not window.connection_label.is_elided()
    assert window.message_bar.shown_message() == "Baseline measurement: started."
    window.close()
