"""The desktop app while a tuning session is armed (no Pi needed: the app's own state): Apply
is disabled with a tooltip that says why, also while the one-click flow runs, and closing the
window asks first: keep, revert now, or let the guard revert in N s."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication, QMessageBox

from sbctune.tuning import AppliedSession
from sbctune.ui.main_window import MainWindow


def _armed(window: MainWindow, seconds: int = 60) -> AppliedSession:
    applied = AppliedSession("20261126T140000Z-abcdef", time.time() + seconds, [],
                             guard_seconds=seconds)  # fmt: skip
    window.state.model.tuning_applied(applied)
    return applied


def test_apply_is_disabled_with_the_reason_while_armed_or_while_the_flow_runs(
    window: MainWindow, gui_app: QApplication
) -> None:
    button = window.tune_page.apply_button
    assert button.toolTip() == "" and window.guard_label.isHidden()
    _armed(window)
    gui_app.processEvents()
    assert not button.isEnabled() and "on trial" in button.toolTip()
    assert "armed" not in button.toolTip()  # the guard's own word (s10 walk)
    # The countdown shows in the status bar, wherever the user is.
    assert window.guard_label.isVisible() and "reverts in " in window.guard_label.text()
    window.state.model.hold_guard(True)  # a measurement holds it
    gui_app.processEvents()
    assert window.guard_label.text() == "Tuning held while measuring"
    window.state.model.hold_guard(False)
    gui_app.processEvents()
    assert window.guard_label.text().startswith("Tuning on trial: reverts in ")
    window.state.model.tuning_reverted()  # its guard ran out, or the user reverted it
    gui_app.processEvents()
    assert button.toolTip() == "" and window.guard_label.isHidden()
    window.state.model.flow_started()
    gui_app.processEvents()
    assert not button.isEnabled() and "one-click flow is running" in button.toolTip()
    window.state.model.flow_stopped()
    gui_app.processEvents()
    assert button.toolTip() == ""


def test_closing_while_armed_asks_keep_revert_or_let_it_revert(
    window: MainWindow, gui_app: QApplication
) -> None:
    _armed(window, 60)
    window.close()
    gui_app.processEvents()
    box = window._close_question
    assert isinstance(box, QMessageBox) and box.isVisible() and window.isVisible()
    assert "reverts them in" in box.text()
    names = [b.text() for b in box.buttons()]
    assert "Keep the settings" in names and "Revert now" in names
    assert any(n.startswith("Let it revert in ") and n.endswith(" s") for n in names), names
    stay = next(b for b in box.buttons() if b.text() == "Don't close")
    stay.click()
    gui_app.processEvents()
    assert window.isVisible() and window._close_question is None  # nothing lost


def test_the_held_guard_line_fits_the_status_bar_at_800_px(
    window: MainWindow, gui_app: QApplication
) -> None:
    """Walking the app at 800×600, the line was cut off ("…reverts it by itself withi")."""
    from sbctune.workflow.guard_hold import GuardHold

    window.resize(800, 600)
    _armed(window)
    hold = GuardHold("20261126T140000Z-abcdef", 90, pi_deadline=time.time() + 412)
    window.state.model.hold_guard(True)
    window.state.model.holding(hold)
    gui_app.processEvents()
    # What the label says connected to a Pi (the state changes above reset it: no Pi here).
    window.connection_label.setText("Connected: pi@raspberrypi (pi@192.168.1.20)")
    gui_app.processEvents()
    assert "the Pi reverts it by itself within 41" in window.guard_label.text()
    assert window.width() == 800
    for label in (window.connection_label, window.guard_label):  # neither squeezed
        assert label.isVisible() and label.width() >= label.sizeHint().width(), (
            label.text(), label.width(), label.sizeHint().width())  # fmt: skip


def test_a_long_host_name_is_elided_next_to_the_countdown_with_the_whole_line_as_tooltip(
    window: MainWindow, gui_app: QApplication
) -> None:
    """Walking at 800 px, a long host name and the guard's countdown squeezed each other."""
    window.resize(800, 600)
    _armed(window)
    gui_app.processEvents()
    host = "pi@my-raspberry-pi-4-in-the-living-room.home.example.internal"
    whole = f"Connected: {host} ({host}:2222)"
    window.connection_label.setText(whole)
    gui_app.processEvents()
    label, guard = window.connection_label, window.guard_label
    assert window.width() == 800 and label.isVisible() and guard.isVisible()
    bar = window.statusBar()
    for widget in (label, guard):  # both inside the window, neither cut by the other
        right = widget.mapTo(window, widget.rect().topRight()).x()
        assert widget.mapTo(window, widget.rect().topLeft()).x() >= 0 and right <= bar.width()
    assert guard.width() >= guard.sizeHint().width(), guard.text()
    shown = label.shown_text()  # type: ignore[attr-defined]
    assert shown != whole and shown.endswith("…") and shown.startswith("Connected: pi@")
    assert label.toolTip() == whole
    window.connection_label.setText("Connected: pi@raspberrypi (pi@192.168.1.20)")
    gui_app.processEvents()
    assert label.toolTip() == ""  # short enough: nothing hidden, no tooltip
