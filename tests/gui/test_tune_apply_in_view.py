"""Found walking the app at 800×600: Apply pressed (Alt+A) while scrolled down among the
tweaks left the guard's countdown and "Keep these settings" out of sight, at the top of the
page; the guard could run out unseen. Applying brings them into view. No Pi: the app's state."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication, QWidget

from sbctune.tuning import AppliedSession
from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data


def _in_view(page: QWidget, widget: QWidget) -> bool:
    viewport = page.viewport()  # type: ignore[attr-defined]
    top = widget.mapTo(viewport, widget.rect().topLeft()).y()
    return top >= 0 and top + widget.height() <= viewport.height()


def test_applying_brings_the_countdown_and_keep_into_view(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(800, 600)
    load_sample_data(window)
    window.go("tune")
    page = window.tune_page
    gui_app.processEvents()
    bar = page.verticalScrollBar()
    bar.setValue(bar.maximum())
    assert bar.maximum() > 0 and not _in_view(page, page.apply_button)
    applied = AppliedSession("20261126T140000Z-abcdef", time.time() + 90, [], guard_seconds=90)
    window.state.model.tuning_applied(applied)
    window.tuning.applied.emit(applied)  # what the controller says once the Pi has it
    gui_app.processEvents()
    assert page.guard_card.isVisible()
    assert _in_view(page, page.confirm_button) and _in_view(page, page.countdown)
