"""The guided path's "Next" after each step (Tune & Measure's time left: tests/unit/
test_flow_estimate.py)."""

from __future__ import annotations

from dataclasses import replace

from sbctune.ui.controllers.wizard import Progress, next_action

NOTHING = Progress(connected=False, inspected=False, baseline=False, tuned=False, after=False)


def _next(page: str, **done: bool) -> str | None:
    action = next_action(page, replace(NOTHING, **done))
    return None if action is None else f"{action.page}: {action.text}"


def test_each_step_leads_to_the_next_once_done() -> None:
    assert _next("connect") is None
    assert _next("connect", connected=True) == "inspect: Next: Inspect the Pi"
    assert _next("inspect", connected=True) is None  # still reading the Pi
    assert _next("inspect", inspected=True) == "baseline: Next: Measure a baseline"
    assert _next("baseline", inspected=True) is None
    assert _next("baseline", baseline=True) == "tune: Next: Tune"
    assert _next("tune", baseline=True) == "results: Next: Results, without tuning"
    assert _next("tune", baseline=True, tuned=True) == "again: Next: Measure again"
    assert _next("again", baseline=True, tuned=True) is None
    assert _next("again", after=True) == "results: Next: Results"
    assert _next("results", after=True) is None


def test_skipping_tuning_is_offered_but_not_focused() -> None:
    skip = next_action("tune", replace(NOTHING, baseline=True))
    tune = next_action("baseline", replace(NOTHING, baseline=True))
    assert skip is not None and not skip.focus
    assert tune is not None and tune.focus
