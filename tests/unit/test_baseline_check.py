"""Walk 14, problems 2, 7 and 9c: a baseline is measured only with no tuning in force, or the
run is labelled "with tuning in force" and never called a baseline; Results without a
baseline says there is nothing to compare with."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from sbctune.history.records import RunRecord
from sbctune.tuning import AppliedSession, LeftoverSession
from sbctune.tuning.model import TweakOutcome
from sbctune.workflow.baseline_check import (
    NO_BASELINE,
    before_after,
    in_force_mark,
    is_fair_baseline,
    not_a_baseline,
    tuning_in_force,
)
from sbctune.workflow.state import ConnectedInfo, WorkflowState

GOVERNOR = "cpu-governor-performance"
GOVERNOR_TITLE = "CPU frequency governor: performance"


def _applied(persist: bool = False) -> AppliedSession:
    outcomes = [TweakOutcome(GOVERNOR, "applied"), TweakOutcome("rps", "not_possible")]
    return AppliedSession("20261129T121500Z-abcd", 0.0, outcomes, persist=persist)


def _connected_state(leftover: LeftoverSession | None = None) -> WorkflowState:
    state = WorkflowState()
    info = ConnectedInfo("pi@lab", "lab", "6.1", "pi", "passwordless", True,
                         tuning_leftover=leftover)  # fmt: skip
    state.connected(cast(Any, object()), info, 1)  # the transition only keeps the session
    return state


def _leftover(state: str = "confirmed", persist: bool = True) -> LeftoverSession:
    outcomes = [TweakOutcome(GOVERNOR, "applied")]
    return LeftoverSession("20261129T100000Z-ef01", state, "2026-11-29T10:00:00Z", "eth1",
                           persist, outcomes, guard_running=True)  # fmt: skip


def test_no_tuning_known_means_nothing_to_say() -> None:
    assert tuning_in_force(_connected_state()) is None


def test_tuning_kept_in_this_session_is_in_force() -> None:
    """The walk's path: Apply, Keep, then Baseline (it said "before any change")."""
    state = _connected_state()
    state.tuning_applied(_applied())
    found = tuning_in_force(state)
    assert found is not None and found.how == "on trial under the guard, not yet kept"
    state.tuning_confirmed()
    found = tuning_in_force(state)
    assert found is not None
    assert found.tweaks == (GOVERNOR,)  # the tweak that was not possible is not in force
    assert found.notice().startswith(f"In force now: {GOVERNOR_TITLE}; kept until the Pi restarts.")
    assert "measured now, it would be the tuned speed, not a baseline" in found.notice()
    state.tuning_reverted()
    assert tuning_in_force(state) is None


def test_kept_across_reboot_says_so() -> None:
    state = _connected_state()
    state.tuning_applied(_applied(persist=True))
    state.tuning_confirmed()
    found = tuning_in_force(state)
    assert found is not None and found.how == "kept across reboots"


def test_the_session_found_at_connect_counts_kept_or_not() -> None:
    state = _connected_state(_leftover())
    found = tuning_in_force(state)
    assert found is not None
    assert found.how == "left on the Pi earlier and kept across reboots"
    state.leftover_settled(kept=True)  # "Keep it": still in force, no longer offered
    assert state.info is not None and state.info.tuning_leftover is None
    assert tuning_in_force(state) is not None
    state.reverted_for_baseline()
    assert tuning_in_force(state) is None


def test_a_reverted_leftover_is_not_in_force() -> None:
    state = _connected_state(_leftover())
    state.leftover_settled(kept=False)
    assert tuning_in_force(state) is None


def _run(tuning: dict[str, Any] | None, run_id: int = 3) -> RunRecord:
    start = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.timezone.utc)
    return RunRecord(1, start, "quick", tuning_state=tuning, id=run_id)


def test_a_run_is_marked_by_the_tweaks_read_back() -> None:
    untuned = _run(None)
    assert in_force_mark(untuned) is None and is_fair_baseline(untuned)
    tuned = _run({"session": "s", "tweaks": [GOVERNOR, "socket-buffers"], "read_back": True})
    mark = in_force_mark(tuned)
    assert mark is not None and mark.startswith(f"with tuning in force: {GOVERNOR_TITLE}, ")
    assert not is_fair_baseline(tuned)
    assert not_a_baseline(tuned) == (
        f"Measured with tuning in force ({GOVERNOR_TITLE}, Larger socket buffers and receive "
        "backlog): this run is not a baseline."
    )
    assert not_a_baseline(untuned) is None
    changed = _run({"session": "s", "tweaks": [], "changed_during_run": True})
    assert in_force_mark(changed) == "tuning changed during this run"
    # "Find what helps" read back one tweak alone: the mark names it, not just "tuned".
    step = _run({"session": "s", "tweaks": ["socket-buffers"], "step": {"tweak": "x", "of": 1}})
    assert in_force_mark(step) != in_force_mark(tuned)


def test_results_without_a_baseline_say_there_is_nothing_to_compare_with() -> None:
    words = before_after(None, _run({"session": "s", "tweaks": [GOVERNOR]}))
    assert words.title == "Nothing to compare with"
    assert words.labels == ["After"] and words.first_colour == 1  # the after's colour
    assert words.note == NO_BASELINE and words.offer_baseline


def test_a_tuned_baseline_is_never_the_before_unsaid() -> None:
    tuned = _run({"session": "s", "tweaks": [GOVERNOR]}, run_id=3)
    words = before_after(tuned, _run({"session": "s", "tweaks": [GOVERNOR]}, run_id=4))
    assert "Before" not in words.labels and words.labels[0] == "With tuning in force"
    assert words.note.startswith("Run 3 was measured with tuning in force: ")
    assert "not a baseline" in words.note and words.offer_baseline
    fair = before_after(_run(None), tuned)
    assert fair.title == "Before and after" and fair.labels == ["Before", "After"]
    assert fair.note == "" and not fair.offer_baseline and fair.first_colour == 0


def test_exports_describe_a_tuned_run_as_such() -> None:
    """Markdown, HTML, the text tables and `sbctune compare` name runs by run_description."""
    from sbctune.compare import run_description

    tuned = _run({"session": "s", "tweaks": [GOVERNOR], "read_back": True})
    assert run_description(tuned).endswith(" · Quick · with tuning in force")
    assert "tuning" not in run_description(_run(None))


def test_a_tweak_already_so_is_not_named_as_tuning_in_force() -> None:
    """Walk 15, problem 3: History listed "Segmentation and receive offloads on" as in force
    for the flow's run, though the lab's offloads were on before the session changed anything."""
    state = _connected_state()
    outcomes = [TweakOutcome("rps-rfs", "applied"), TweakOutcome("offloads-on", "already")]
    state.tuning_applied(AppliedSession("20261129T121500Z-abcd", 0.0, outcomes))
    stored = state.run_tuning_state()
    assert stored is not None
    mark = in_force_mark(_run(stored))
    assert mark is not None and "offloads" not in mark.lower() and "RPS" in mark, mark
    found = tuning_in_force(state)
    assert found is not None and found.tweaks == ("rps-rfs",)
    only_already = [TweakOutcome("offloads-on", "already")]
    left = LeftoverSession("20261129T100000Z-ef01", "confirmed", "2026-11-29T10:00:00Z", "eth1",
                           False, only_already, guard_running=False)  # fmt: skip
    assert tuning_in_force(_connected_state(left)) is not None
    assert tuning_in_force(_connected_state(left)).tweaks == ()  # type: ignore[union-attr]


def test_an_untuned_second_run_is_never_an_after() -> None:
    """Walk 15, problem 1: "Measure again" with nothing in force (as read back) was shown as the
    "After" of "Before and after", "no change detected"."""
    untuned = _run(None, run_id=5)
    words = before_after(_run(None, run_id=4), untuned)
    assert words.title == "Two runs with nothing in force"
    assert "After" not in words.labels and words.labels[0] == "Before"
    assert words.note.startswith("Nothing was in force on the Pi during run 5 either")
    alone = before_after(None, untuned)
    assert alone.labels == ["Nothing in force"] and alone.note == NO_BASELINE
    tuned = before_after(_run(None, run_id=4), _run({"session": "s", "tweaks": [GOVERNOR]}))
    assert tuned.labels == ["Before", "After"]
