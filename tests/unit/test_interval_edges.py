"""The interval rule that decides every verdict (sbctune.compare.interval), at its edges, and the
rules built on it: keep only what helps (sbctune.workflow.keeping), what each tweak did alone
(sbctune.compare.attribution) and a run whose tuning changed while it ran
(sbctune.history.run_tuning)."""

from __future__ import annotations

import math
import random
import re
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.compare import change, compare
from sbctune.compare.attribution import contributions
from sbctune.compare.waterfall import waterfall
from sbctune.history.records import RunRecord, TestRecord
from sbctune.history.run_tuning import CHANGED, change_text, tuning_text, usable_as_tuned
from sbctune.workflow.keeping import NO_INTERVAL, NOTHING_TO_GAIN, STOPPED_EARLY, decide
from sbctune.workflow.tuning_read import TuningReading, run_tuning
from tests.unit.export.seed_runs import START


# ---------------------------------------------------------------------- the interval's edges
def test_identical_trials_on_both_sides_are_no_change_without_dividing_by_zero() -> None:
    found = change([736.0, 736.0, 736.0], [736.0, 736.0, 736.0])
    assert (found.delta, found.low, found.high) == (0.0, 0.0, 0.0)
    assert found.verdict == "no_change" and found.text == "no change detected (0 to 0)"  # unsigned


def test_zero_spread_with_a_real_gain_is_faster_by_exactly_the_gain() -> None:
    found = change([736.0, 736.0], [834.0, 834.0])
    assert (found.low, found.high, found.verdict) == (98.0, 98.0, "faster")


def test_zero_spread_below_the_floor_is_no_change() -> None:
    found = change([736.0, 736.0], [740.0, 740.0])  # +4 < 1 % of 736, however sure
    assert found.verdict == "no_change" and found.low > 0


def test_the_negative_side_of_no_change_detected() -> None:
    # A small sure loss (inside ±10 %, not beyond the floor of 1 %): no change, not "slower".
    found = change([736.0, 737.0, 735.0], [731.0, 732.0, 730.0])
    assert found.high < 0 and found.high >= -found.floor
    assert found.verdict == "no_change" and found.text.startswith("no change detected (−")
    # The same loss beyond the floor is "slower", with the interval in words.
    worse = change([736.0, 737.0, 735.0], [700.0, 701.0, 699.0])
    assert worse.verdict == "slower" and worse.text.startswith("slower by ")


def test_one_side_empty_gives_no_interval_and_no_verdict() -> None:
    for first, second in (([], [736.0, 737.0]), ([736.0, 737.0], []), ([], [])):
        found = change(first, second)
        assert found.verdict == "unknown" and math.isnan(found.low), (first, second)
        assert found.delta == 0.0 and found.text == "no interval: fewer than 2 trials"


def test_a_a_pairs_are_called_a_change_at_most_one_time_in_twenty() -> None:
    """Two runs of the same Pi (3 trials each, the quick plan's) differ only by noise: the rule
    must call them faster or slower rarely (its interval is 95 %, and the floor adds margin)."""
    rng = random.Random(25)
    pairs = 2000
    called = 0
    for _ in range(pairs):
        spread = rng.choice((2.0, 8.0, 25.0))  # steady, typical and busy lab runs
        a = [rng.gauss(736.0, spread) for _ in range(3)]
        b = [rng.gauss(736.0, spread) for _ in range(3)]
        called += change(a, b).verdict in ("faster", "slower")
    assert called / pairs <= 1 / 20, called


# ---------------------------------------------------------------------- keep only what helps
def _run(run_id: int, pi_to_pc: list[float], tuning: dict[str, object] | None = None) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(pi_to_pc),
                      trial_means=pi_to_pc)  # fmt: skip
    return RunRecord(1, START, "quick", tests=[test], id=run_id, tuning_state=tuning,
                     complete=True)  # fmt: skip


def _reading(*tweaks: str, session: str = "s1", state: str = "armed") -> TuningReading:
    return TuningReading(session if tweaks else None, state if tweaks else None, tweaks,
                         values={"/gov": "performance"} if tweaks else {})  # fmt: skip


def test_a_gain_beyond_noise_is_kept_and_no_gain_is_reverted_with_the_words() -> None:
    held = run_tuning(_reading("gov"), _reading("gov"))
    base = _run(1, [736.0, 737.0, 735.0])
    gained = _run(2, [834.0, 830.0, 832.0], held)
    kept = decide(compare([base, gained]), gained)
    assert kept.keep and kept.helped and kept.reason.startswith("kept, it helped: Pi → PC")
    same = _run(3, [737.0, 735.0, 736.0], held)
    nothing = decide(compare([base, same]), same)
    assert not nothing.keep and nothing.reason == NOTHING_TO_GAIN
    one = _run(5, [834.0], held)  # one trial: no interval, so no gain can be shown
    assert decide(compare([_run(1, [736.0]), one]), one).reason == NO_INTERVAL
    slower = _run(4, [700.0, 701.0, 699.0], held)
    worse = decide(compare([base, slower]), slower)
    assert not worse.keep and worse.reason.startswith("not kept, it made things worse")
    # walk19: Measure again lost its link after one trial of one direction; Results said
    # "nothing to gain". A run that stopped early shows no gain and no loss: it says so.
    stopped = _run(6, [735.0], held)
    stopped.complete = False
    told = decide(compare([base, stopped]), stopped)
    assert not told.keep and told.reason == STOPPED_EARLY and "stopped before" in told.reason


def test_a_run_whose_guard_fired_mid_run_is_marked_and_its_gain_not_kept() -> None:
    state = run_tuning(_reading("gov", "rps"), TuningReading())  # reverted before the end
    assert state is not None and state["changed_during_run"] and state["tweaks"] == []
    run = _run(2, [834.0, 830.0, 832.0], state)
    assert not usable_as_tuned(run)
    assert change_text(run) == (f"{CHANGED} (at start: 2 tweaks in force (on trial under "
                                "the guard); at end: untuned)")  # fmt: skip
    assert tuning_text(run) == f"tuning applied earlier: {CHANGED}"
    comparison = compare([_run(1, [736.0, 737.0, 735.0]), run])
    assert comparison.runs[1].tuning_changed and CHANGED.upper() in comparison.runs[1].description
    decision = decide(comparison, run)
    assert not decision.keep and CHANGED in decision.reason


def test_tuning_held_from_start_to_end_is_stored_as_read() -> None:
    state = run_tuning(_reading("gov"), _reading("gov", state="confirmed"))
    assert state is not None and not state["changed_during_run"]
    assert state["tweaks"] == ["gov"] and state["state"] == "confirmed"
    assert run_tuning(TuningReading(), TuningReading()) is None  # untuned all along
    # A Pi that could not be read at the end proves nothing: marked, never "tuned".
    unread = run_tuning(_reading("gov"), TuningReading(readable=False))
    assert unread is not None and unread["changed_during_run"]


def test_each_tweak_alone_gets_its_contribution_and_the_waterfall_draws_it() -> None:
    base = _run(1, [736.0, 737.0, 735.0])
    gov = _run(2, [834.0, 830.0, 832.0], {"tweaks": ["gov"], "step": {"tweak": "gov", "of": 1}})
    rps = _run(3, [735.0, 738.0, 736.0], {"tweaks": ["rps"], "step": {"tweak": "rps", "of": 1}})
    orphan = _run(4, [735.0, 738.0], {"step": {"tweak": "x", "of": 99}})  # baseline not given
    found = {c.tweak_id: c for c in contributions([base, gov, rps, orphan])}
    assert set(found) == {"gov", "rps"}
    (effect,) = found["gov"].effects
    assert found["gov"].helps and effect.verdict == "faster" and 0 < effect.low < effect.high
    assert not found["rps"].helps and found["rps"].summary == "no gain beyond noise"
    svg = waterfall(list(found.values())).to_svg()
    assert "gov" in svg and "rps" in svg and "faster by" in svg


def test_the_waterfall_names_each_tweak_whole() -> None:
    """Walk 14: the label under a bar was cut, "Larger socket buffers and receive…"."""
    base = _run(1, [736.0, 737.0, 735.0])
    ids = ["rps", "cpu-governor", "socket-buffers", "eee-off"]
    runs = [_run(2 + i, [834.0, 830.0, 832.0], {"tweaks": [t], "step": {"tweak": t, "of": 1}})
            for i, t in enumerate(ids)]  # fmt: skip
    svg = waterfall(contributions([base, *runs])).to_svg()
    words = re.findall(r">([^<>]*)</text>", svg)
    assert "Larger socket buffers and" in words and "receive backlog" in words, words
    assert not any(w.endswith("…") for w in words if "socket" in w or "backlog" in w)


# ---------------------------------------------------------------------- garbage stored state
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=20,
)
_KEYS = st.sampled_from(["session", "state", "tweaks", "changed_during_run", "start", "end",
                         "step", "read_back", "in_force", "readable", "tweak", "of",
                         "reference"])  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        _KEYS | st.text(max_size=8), _JSON | st.dictionaries(_KEYS, _JSON, max_size=6), max_size=8
    )
    | _JSON
)
def test_a_garbled_stored_tuning_state_is_worded_never_a_crash(state: object) -> None:
    """A history row (or an imported export) can hold anything in tuning_state_json."""
    run = _run(2, [736.0, 737.0], state)  # type: ignore[arg-type]
    base = _run(1, [736.0, 737.0])
    assert isinstance(tuning_text(run), str) and isinstance(change_text(run), str)
    assert isinstance(usable_as_tuned(run), bool)
    comparison = compare([base, run])
    assert isinstance(decide(comparison, run).reason, str)
    for found in contributions([base, run]):
        assert isinstance(found.summary, str)
