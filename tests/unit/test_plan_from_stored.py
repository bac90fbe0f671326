"""`plan_from_stored` reads a run's plan back from the history (Measure again after a baseline
measured with a changed plan): garbage gives None, never an exception or a run of hours."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sbctune.measure.plans import plan_from_stored, plan_named

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=30,
)
KEYS = ("mode", "directions", "duration", "omit", "streams", "trials", "trial", "udp_mbps")


@given(JSONISH)
def test_garbage_is_none_or_a_bounded_plan(stored: Any) -> None:
    plan = plan_from_stored("custom", stored)
    assert plan is None or all(0 < t.duration <= 3600 for t in plan.tests)


@given(st.lists(st.fixed_dictionaries({k: JSONISH for k in KEYS}), max_size=4))
def test_garbage_tests_are_none_or_a_bounded_plan(tests: list[dict[str, Any]]) -> None:
    plan = plan_from_stored("custom", {"title": "x", "tests": tests})
    assert plan is None or all(0 < t.duration <= 3600 and t.streams <= 128 for t in plan.tests)


def test_a_changed_plan_round_trips() -> None:
    changed = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)
    stored = {
        "title": changed.title,
        "tests": [vars(t) | {"directions": list(t.directions)} for t in changed.tests],
        "extra_trials": changed.extra_trials,
        "steady_within": changed.steady_within,
    }
    assert plan_from_stored("custom", stored) == changed
