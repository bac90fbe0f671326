"""Results while the tuning is on trial (found walking the app at 800×600): after "Measure
again" the app lands on Results with the guard counting down; Keep must be in sight there, and
when the guard runs out the card must say so instead of still offering Keep. No Pi needed: the
app's own state."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication

from sbctune.tuning import AppliedSession
from sbctune.ui.main_window import MainWindow


def _armed(window: MainWindow, seconds: int = 60) -> AppliedSession:
    applied = AppliedSession("20261126T140000Z-abcdef", time.time() + seconds, [],
                             guard_seconds=seconds)  # fmt: skip
    window.state.model.tuning_applied(applied)
    return applied


def _in_view(window: MainWindow, widget: object) -> bool:
    page = window.results_page
    viewport = page.viewport()
    top_left = widget.mapTo(viewport, widget.rect().topLeft())  # type: ignore[attr-defined]
    return 0 <= top_left.y() < viewport.height()


def test_on_trial_the_tuning_card_comes_first_and_says_how_to_keep(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(800, 600)
    _armed(window)
    window.go("results")
    gui_app.processEvents()
    page = window.results_page
    layout = page.content
    assert layout.indexOf(page.tuning_card) < layout.indexOf(page.table_card)
    assert page.tuning_card.isVisible() and _in_view(window, page.keep_button)
    assert "press Keep" in page.tuning_text.text()
    assert "guard" not in page.tuning_text.text().split(":")[0]  # plain words first


def test_the_card_follows_the_guard_running_out_while_the_page_is_shown(
    window: MainWindow, gui_app: QApplication
) -> None:
    _armed(window)
    window.go("results")
    gui_app.processEvents()
    page = window.results_page
    window.state.model.tuning_reverted()  # the Tune page's countdown reached zero
    gui_app.processEvents()
    assert page.tuning_text.text().startswith("Reverted")
    assert not page.keep_button.isEnabled()
    layout = page.content
    # What just happened stays in sight while the user is here; next time it sits below.
    assert layout.indexOf(page.tuning_card) < layout.indexOf(page.table_card)
    window.go("tune")
    window.go("results")
    gui_app.processEvents()
    assert layout.indexOf(page.tuning_card) > layout.indexOf(page.table_card)


def test_after_a_revert_the_applied_lines_read_as_before_it(
    window: MainWindow, gui_app: QApplication
) -> None:
    """s10 walk: "Reverted: the Pi is as it was before." then "CPU frequency governor:
    performance: applied — ..." read as still applied."""
    from sbctune.tuning import TweakOutcome

    applied = AppliedSession("20261126T140000Z-abcdef", time.time() + 60,
                             [TweakOutcome("cpu-governor-performance", "applied", "every core")],
                             guard_seconds=60)  # fmt: skip
    window.state.model.tuning_applied(applied)
    window.go("results")
    gui_app.processEvents()
    page = window.results_page
    window.state.model.tuning_reverted()
    gui_app.processEvents()
    first, second = page.tuning_text.text().splitlines()[:2]
    assert first == "Reverted: the Pi is as it was before. Until then:"
    assert second.startswith("CPU frequency governor: performance: applied")
