"""The plan box says what will run: a plan changed by `gui --demo --duration/--trials` shows
its own title on Baseline and on Measure again, never the preset's it came from (walk 16), and
Start runs that plan again."""

from __future__ import annotations

import datetime as dt

from sbctune.measure.plans import plan_named
from sbctune.ui.controllers.records import RunRecord
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage

CHANGED = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)


def test_a_changed_plan_is_shown_with_its_own_figures(window: MainWindow) -> None:
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    window.baseline.begin_live(CHANGED)  # what the demo's flow does when it starts
    shown = page.plan.currentText()
    assert shown == CHANGED.title
    assert "1 trial × 2 s per direction" in shown and "Quick (3 trials" not in shown
    assert page.chosen_plan() == CHANGED  # Start measures what the box says
    # Back at a preset, the custom item stays one choice; Settings keep a preset.
    page.plan.setCurrentIndex(page.plan.findData("quick"))
    assert page.chosen_plan() == plan_named("quick")
    assert window.settings.default_plan == "quick"


def test_measure_again_shows_the_baselines_changed_plan(window: MainWindow) -> None:
    from sbctune.ui.pages.plan_box import CUSTOM

    stored = {
        "title": CHANGED.title,
        "tests": [vars(t) | {"directions": list(t.directions)} for t in CHANGED.tests],
        "extra_trials": CHANGED.extra_trials,
        "steady_within": CHANGED.steady_within,
    }
    now = dt.datetime.now(dt.timezone.utc)
    baseline = RunRecord(device_id=1, started_at=now, plan_name="custom", plan=stored)
    window.state.model.baseline = baseline
    page = window.page("again")
    assert isinstance(page, MeasurePage)
    page.shown()
    assert page.plan.currentData() == CUSTOM
    assert page.plan.currentText() == CHANGED.title
    assert page.chosen_plan().tests == CHANGED.tests  # "the same plan as the baseline"


def test_a_stored_plan_is_read_back_only_when_it_is_whole() -> None:
    from sbctune.measure.plans import plan_from_stored

    assert plan_from_stored("quick", None) == plan_named("quick")
    assert plan_from_stored("custom", None) is None
    assert plan_from_stored("custom", {"title": "x", "tests": [{"mode": "half"}]}) is None
    huge = {"mode": "half", "directions": ["pi_to_pc"], "duration": 10**9, "omit": 0,
            "streams": 1, "trials": 1}  # fmt: skip
    assert plan_from_stored("custom", {"title": "x", "tests": [huge]}) is None
