"""Tune & Measure with tuning kept on the Pi measured its "before" tuned and then said "no
change": the flow now checks first, in the Baseline page's words, and never measures a tuned
baseline unasked."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from sbctune.errors import UserError
from sbctune.tuning import AppliedSession
from sbctune.tuning.model import TweakOutcome
from sbctune.workflow.baseline_check import tuning_in_force
from sbctune.workflow.flow_baseline import check_before_flow, revert_choice, settle_before_flow
from sbctune.workflow.state import ConnectedInfo, WorkflowState

GOVERNOR = "cpu-governor-performance"


def _state(kept: bool) -> WorkflowState:
    state = WorkflowState()
    info = ConnectedInfo("pi@lab", "lab", "6.1", "pi", "passwordless", True)
    state.connected(cast(Any, object()), info, 1)
    if kept:
        outcomes = [TweakOutcome(GOVERNOR, "applied")]
        state.tuning_applied(AppliedSession("20261129T121500Z-abcd", 0.0, outcomes))
        state.tuning_confirmed()
    return state


def test_nothing_in_force_starts_the_flow_at_once() -> None:
    check = check_before_flow(_state(kept=False))
    assert check.decision == "start" and check.found is None
    assert asyncio.run(settle_before_flow(cast(Any, None), None, _state(False), False)) is False


def test_kept_tuning_makes_the_flow_ask_in_the_baseline_pages_words() -> None:
    state = _state(kept=True)
    check = check_before_flow(state)
    assert check.decision == "ask"
    found = tuning_in_force(state)
    assert found is not None and check.found == found
    text, detail = check.question("Tune & Measure")
    assert text == f"Tuning is in force on the Pi. {found.notice()}"
    assert "CPU frequency governor: performance" in text and "not a baseline" in text
    assert "Revert the tuning first" in detail and GOVERNOR not in text + detail
    assert revert_choice() == "Revert it first, then Tune & Measure"
    assert check_before_flow(state, revert_first=True).decision == "revert"


def test_the_flow_never_measures_a_tuned_before_unasked() -> None:
    """Started without the user's choice to revert: it stops before anything is measured."""
    state = _state(kept=True)
    with pytest.raises(UserError, match="Tuning is in force on the Pi"):
        asyncio.run(settle_before_flow(cast(Any, None), None, state, revert_first=False))
    assert state.tuning_state == "confirmed"  # nothing was changed on the Pi either
