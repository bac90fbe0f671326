"""Issue 22 walk (shots 47-48): after "Find what helps" measured RPS alone as no gain and
reverted it, Results still recommended RPS as if untried. The advice now says what was measured.

The inventory comes from the real captures of the lab profile pi4-ax88179 (its sources are in
that profile's directory)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.compare.attribution import Contribution, Effect
from sbctune.history.records import RunRecord, TestRecord
from sbctune.workflow.flow_types import Attribution
from sbctune.workflow.state import WorkflowState

PROFILE = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles" / "pi4-ax88179"
RPS_TITLE = "Spread receive processing over all cores (RPS)"


def _state() -> WorkflowState:
    inventory = inspect_bundle(PROFILE)
    run = RunRecord(
        device_id=1, started_at=dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.timezone.utc),
        plan_name="quick", nic="eth1", complete=True, id=1,
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=736.0)],
    )  # fmt: skip
    return WorkflowState(inventory=inventory, nic="eth1", baseline=run)


def _rps_sources(state: WorkflowState) -> list[str]:
    advice = state.advice_now()
    assert advice is not None
    return next(r.sources for r in advice.recommendations if "rps-rfs" in r.tweak_ids)


def _rps(state: WorkflowState) -> tuple[int, str, str]:
    advice = state.advice_now()
    assert advice is not None
    recs = advice.recommendations
    index = next(i for i, r in enumerate(recs) if "rps-rfs" in r.tweak_ids)
    return index - len(recs), recs[index].title, recs[index].expected_gain


def test_rps_measured_alone_as_no_gain_is_not_recommended_unsaid() -> None:
    untried = _state()
    _, title, gain = _rps(untried)
    assert title == RPS_TITLE and "measured alone" not in gain  # recommended as before
    tried = _state()
    flat = Effect("Pi → PC one way", 2.0, -8.0, 12.0, "no_change", "no change detected")
    tried.attribution = Attribution([Contribution("rps-rfs", 2, [flat])])
    place, title, gain = _rps(tried)
    assert title == f"{RPS_TITLE}: measured here, no help"
    assert gain == "none on this Pi (measured alone: no gain beyond noise; reverted)"
    assert place == -1  # after the advice not yet tried
    # the public write-up stays, as what suggested it, not as the source of a gain here
    before, after = _rps_sources(untried), _rps_sources(tried)
    assert before and after == [
        f"what suggested trying it (measured elsewhere): {s}" for s in before
    ]


def test_a_tweak_that_helped_or_did_not_hold_is_not_marked() -> None:
    state = _state()
    faster = Effect("Pi → PC one way", 90.0, 80.0, 100.0, "faster", "faster by 80 to 100")
    state.attribution = Attribution([Contribution("rps-rfs", 2, [faster])])
    assert "measured" not in _rps(state)[1]
    state = _state()
    flat = Effect("Pi → PC one way", 2.0, -8.0, 12.0, "no_change", "no change detected")
    state.attribution = Attribution([Contribution("rps-rfs", 2, [flat], changed_during_run=True)])
    assert "measured" not in _rps(state)[1]
