"""walk27: Results at 800 x 600 right after "measure again" drew the chart over the table and
the caption over the chart, right once the page was scrolled. The page was painted before its
layouts had settled: each level of nesting (table, card, page, scroll area) lays out on the
next turn of the event loop, and the paint came between, the content squeezed into the scroll
area's old height with every fixed-height widget over the next one. What the user sees is a
paint: no paint of the page may show two of its widgets over each other."""

from __future__ import annotations

import datetime as dt
import time

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.history.records import RunRecord, TestRecord
from sbctune.tuning import AppliedSession
from sbctune.ui.main_window import MainWindow

SESSION = "20261201T060000Z-abcdef"


def _run(run_id: int, mbps: float, session: str | None) -> RunRecord:
    tests = [
        TestRecord(direction=d, mode="half", mean_mbps=mbps, trial_means=[mbps - 1, mbps + 1])
        for d in ("pi_to_pc", "pc_to_pi")
    ]
    when = dt.datetime(2026, 12, 1, 6, run_id, tzinfo=dt.timezone.utc)
    tuning = {"session": session, "tweaks": ["cpu-governor-performance"]} if session else None
    return RunRecord(
        1, when, "quick", nic="eth0", tests=tests, id=run_id, tuning_state=tuning, complete=True
    )


def _overlaps(root: QWidget) -> list[str]:
    """Visible siblings laid over each other, anywhere under `root`."""
    found = []
    for parent in [root, *root.findChildren(QWidget)]:
        kids = [
            c
            for c in parent.children()
            if isinstance(c, QWidget) and c.isVisible() and not c.isWindow()
        ]
        for i, a in enumerate(kids):
            for b in kids[i + 1 :]:
                if a.geometry().intersects(b.geometry()):
                    found.append(
                        f"{type(a).__name__} {a.geometry()} / {type(b).__name__} {b.geometry()}"
                    )
    return found


class _PaintWatch(QObject):
    """At each paint of the page's content: the widgets that overlap then."""

    def __init__(self, root: QWidget) -> None:
        super().__init__()
        self.root = root
        self.paints = 0
        self.seen: list[str] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
            self.seen += _overlaps(self.root)
        return False


def test_results_filled_while_shown_never_painted_overlapping(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(800, 600)
    window.go("again")  # where the flow's "measure again" ends
    for _ in range(5):
        gui_app.processEvents()
    page = window.page("results")
    content = page.widget()
    watch = _PaintWatch(content)
    content.installEventFilter(watch)
    model = window.state.model
    model.tuning_applied(AppliedSession(SESSION, time.time() + 90, [], guard_seconds=90))
    model.measured("baseline", _run(1, 301.9, None))
    model.measured("after", _run(2, 299.6, SESSION))
    window.go("results")  # the flow's end: Results, filled as it is shown
    for _ in range(10):
        gui_app.processEvents()
    content.removeEventFilter(watch)
    assert watch.paints, "the page was never painted"
    assert watch.seen == [], f"painted with widgets over each other: {watch.seen[:3]}"
    assert _overlaps(content) == []


def test_no_page_painted_overlapping_when_first_shown_filled(
    window: MainWindow, gui_app: QApplication
) -> None:
    """Every page is built the same way (a scroll area over cards): each one, first shown with
    the sample Pi's data in it, at 800 x 600."""
    from sbctune.ui.main_window import EXTRA, PATH
    from sbctune.ui.selftest import load_sample_data

    window.resize(800, 600)
    load_sample_data(window)
    for key in (*PATH, *EXTRA):
        content = window.page(key).widget()
        watch = _PaintWatch(content)
        content.installEventFilter(watch)
        window.go(key)
        for _ in range(10):
            gui_app.processEvents()
        content.removeEventFilter(watch)
        assert watch.seen == [], f"{key}: painted with widgets over each other: {watch.seen[:3]}"
