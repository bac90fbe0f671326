"""The progress bar of a run that did not finish says so (walk ux29 on X: after Cancel the
baseline's bar stayed blue and a fifth filled, as a test still under way looks, the words
"Stopped early" only below it). Greyed where it stopped, it reads "Cancelled" (or "Stopped by
an error"); the next run's bar is an ordinary one again."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QProgressBar

from sbctune.measure.outcome import Interval
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.measure.runner import TestStarted as Started
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.workflow import Problem

PLAN = plan_named("quick")


def _running(window: MainWindow, page_name: str) -> tuple[object, LiveMeasurement]:
    now = [0.0]
    live = LiveMeasurement(PLAN, 1000.0, clock=lambda: now[0])
    page = getattr(window, page_name)
    page.attach(live)
    spec = PLAN.tests[0]
    live.feed(Started(0, spec))
    now[0] += 3.0
    live.feed(LiveInterval(0, spec, spec.directions[0], Interval(1.0, 900.0, 0, False)))
    page.refresh()
    return page, live


def _done_part_colour(bar: QProgressBar) -> QColor:
    """The colour drawn in the middle of the bar's part done (left of any words in it)."""
    bar.resize(max(bar.width(), 400), max(bar.height(), 20))
    image = bar.grab().toImage()
    done = bar.width() * (bar.value() - bar.minimum()) // (bar.maximum() - bar.minimum())
    return image.pixelColor(max(2, done // 2), image.height() // 2)


@pytest.mark.parametrize("page_name", ["baseline_page", "again_page"])
@pytest.mark.parametrize(
    ("how", "words"), [("cancelled", "Cancelled"), ("failed", "Stopped by an error")]
)
def test_a_stopped_runs_bar_says_it_stopped(
    window: MainWindow, page_name: str, how: str, words: str
) -> None:
    page, _live = _running(window, page_name)
    bar = page.progress
    assert bar.isEnabled() and not bar.isTextVisible()  # while it runs: the bar alone
    running_colour = _done_part_colour(bar)
    if how == "cancelled":
        page._cancelled()
    else:
        page._failed(Problem("The Pi stopped answering.", ""))
    assert 0 < bar.value() < bar.maximum()  # where it stopped
    assert bar.isTextVisible() and bar.text() == words
    assert not bar.isEnabled()  # greyed: not a test under way
    stopped_colour = _done_part_colour(bar)
    assert stopped_colour.saturation() < 40 < running_colour.saturation(), (
        stopped_colour.name(),
        running_colour.name(),
    )
    # The next run's bar runs as ever.
    _running(window, page_name)
    assert bar.isEnabled() and not bar.isTextVisible()
