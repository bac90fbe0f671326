"""Latency under load in the keep rule (issue 25): each trial's added latency gives it an
interval (the throughput rule, 5 ms floor); a tweak that adds latency under load beyond noise
is not kept even when it is faster, one that only lowers it is kept, and runs that kept no
per-trial latency are judged on throughput alone."""

from __future__ import annotations

import statistics
from typing import Any

from sbctune.compare import compare
from sbctune.compare.latency import MIN_CHANGE_MS
from sbctune.history.records import RunRecord, TestRecord
from sbctune.measure.latency.stats import trial_added
from sbctune.workflow.keeping import NOTHING_TO_GAIN, decide
from sbctune.workflow.tuning_read import TuningReading, run_tuning
from tests.unit.export.seed_runs import START

HELD = run_tuning(TuningReading("s1", "armed", ("gov",)), TuningReading("s1", "armed", ("gov",)))


def _latency(trials: list[float] | None) -> dict[str, Any]:
    """One kind of load: idle round trips of ~1 ms, loaded ones ~1 ms + the trials' mean."""
    added = statistics.fmean(trials) if trials else 20.0
    group: dict[str, Any] = {"idle_ms": [1.0] * 10, "loaded_ms": [1.0 + added] * 10,
                             "idle_lost": 0, "loaded_lost": 0}  # fmt: skip
    if trials is not None:
        group["trial_added_ms"] = trials
    return {"groups": {"half/pi_to_pc": group}}


def _run(run_id: int, mbps: list[float], added: list[float] | None) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(mbps), trial_means=mbps)
    return RunRecord(1, START, "quick", tests=[test], id=run_id, latency=_latency(added),
                     tuning_state=HELD if run_id > 1 else None, complete=True)  # fmt: skip


BASE = _run(1, [736.0, 737.0, 735.0], [40.0, 42.0, 41.0])


def test_faster_but_more_latency_under_load_is_not_kept() -> None:
    after = _run(2, [834.0, 830.0, 832.0], [80.0, 83.0, 81.0])
    decision = decide(compare([BASE, after]), after)
    assert not decision.keep
    assert decision.worse == ["latency under load (Pi → PC): up by 37 to 43 ms"], decision.worse
    assert decision.reason.startswith("not kept, it made things worse: latency under load")


def test_only_less_latency_under_load_is_kept() -> None:
    after = _run(2, [737.0, 735.0, 736.0], [10.0, 12.0, 11.0])
    decision = decide(compare([BASE, after]), after)
    assert decision.keep and not decision.worse
    assert decision.helped == ["latency under load (Pi → PC): down by 28 to 32 ms"]


def test_a_latency_change_within_the_floor_or_the_noise_decides_nothing() -> None:
    small = _run(2, [737.0, 735.0, 736.0], [43.0, 44.0, 45.0])  # +3 ms: below 5 ms
    assert decide(compare([BASE, small]), small).reason == NOTHING_TO_GAIN
    noisy = _run(3, [737.0, 735.0, 736.0], [5.0, 90.0, 40.0])
    assert decide(compare([BASE, noisy]), noisy).reason == NOTHING_TO_GAIN
    cell = compare([BASE, small]).latency[0].cells[-1]
    assert cell is not None and cell.change is not None and cell.change.floor == MIN_CHANGE_MS


def test_runs_without_per_trial_latency_are_judged_on_throughput_alone() -> None:
    old_base = _run(1, [736.0, 737.0, 735.0], None)
    after = _run(2, [834.0, 830.0, 832.0], None)  # its one latency figure: +20 ms, no interval
    decision = decide(compare([old_base, after]), after)
    assert decision.keep and decision.helped[0].startswith("Pi → PC")
    cell = compare([old_base, after]).latency[0].cells[-1]
    assert cell is not None and cell.change is None


def test_stored_per_trial_latency_is_read_as_untrusted() -> None:
    assert trial_added({"groups": {"full": {"trial_added_ms": [1, "x", -3, float("nan"), 2.5]}}},
                       "full") == [1.0, 2.5]  # fmt: skip
    assert trial_added({"groups": []}, "full") == [] and trial_added(None, "full") == []
