"""What each tweak did, from stored runs: the seeds' own method (seed 000 measured the IRQ
affinity, packet steering and the CPU clock one at a time).

"Find what helps" (sbctune.workflow.attributing) measures the baseline, then each tweak on its
own with the same plan; each step's run keeps `tuning_state["step"] = {"tweak": ID, "of":
BASELINE_RUN_ID}`. A tweak's contribution is its run against that baseline, per direction and
mode, as the interval rule gives it (sbctune.compare.interval). Computed from the runs alone, so
every export and front end shows the same table and waterfall.

The baseline is measured again after the tweaks (`{"reference": true, "of": BASELINE_RUN_ID}`)
when one of them seemed to change something: the minutes between the baseline and a tweak's
run can move the figure by themselves (a Pi warming up, other traffic, a busy PC: session 33's
CI credited RPS with +33 to +70 Mbit/s of a busy machine's drift). How far the two baselines
came apart is then the floor a tweak must clear, as an A/A calibration's spread is for compare.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from sbctune.compare.compare import find_test
from sbctune.compare.interval import Change, change
from sbctune.history.records import DIRECTIONS, MODES, Direction, Mode, RunRecord
from sbctune.history.run_tuning import changed_during_run
from sbctune.measure.plans import DIRECTION_LABEL, MODE_WORDS


@dataclass(frozen=True)
class Effect:
    """One tweak's change in one direction and mode, with its 95 % interval."""

    label: str  # "Pi → PC half-duplex"
    delta: float
    low: float  # nan: no interval (fewer than 2 trials on a side)
    high: float
    verdict: str  # faster | slower | no_change | too_noisy | unknown
    text: str  # "faster by 60 to 110 Mbit/s"
    drift: float = math.nan  # how far the baseline moved when measured again (nan: not again)


@dataclass(frozen=True)
class Contribution:
    tweak_id: str
    run_id: int | None
    effects: list[Effect] = field(default_factory=list)
    changed_during_run: bool = False  # its tuning did not hold: the step proves nothing
    reference_run_id: int | None = None  # the baseline measured again, whose drift is the floor

    @property
    def helps(self) -> bool:
        """Beyond noise faster somewhere, and slower nowhere."""
        if self.changed_during_run:
            return False
        verdicts = {e.verdict for e in self.effects}
        return "faster" in verdicts and "slower" not in verdicts

    @property
    def worse(self) -> bool:
        return any(e.verdict == "slower" for e in self.effects)

    @property
    def summary(self) -> str:
        if self.changed_during_run:
            return "not measured: its tuning changed during the run"
        shown = [f"{e.label}: {e.text}" for e in self.effects if e.verdict in ("faster", "slower")]
        if shown:
            return "; ".join(shown)
        return "no gain beyond noise"

    def to_json(self) -> dict[str, Any]:
        return {
            "tweak": self.tweak_id,
            "run": self.run_id,
            "helps": self.helps,
            "changed_during_run": self.changed_during_run,
            "summary": self.summary,
            "reference_run": self.reference_run_id,
            "effects": [
                {
                    "label": e.label,
                    "delta_mbps": e.delta,
                    "verdict": e.verdict,
                    "text": e.text,
                    "low_mbps": None if math.isnan(e.low) else e.low,
                    "high_mbps": None if math.isnan(e.high) else e.high,
                    "drift_mbps": None if math.isnan(e.drift) else e.drift,
                }
                for e in self.effects
            ],
        }


def step_of(run: RunRecord) -> tuple[str, int] | None:
    """(tweak id, baseline run id) when `run` is a step of "Find what helps"."""
    state = run.tuning_state if isinstance(run.tuning_state, dict) else {}
    step = state.get("step")
    if not isinstance(step, dict):
        return None
    tweak, of = step.get("tweak"), step.get("of")
    if not isinstance(tweak, str) or not isinstance(of, int):
        return None
    return tweak[:80], of


def reference_of(run: RunRecord) -> int | None:
    """The baseline's run id when `run` is that baseline measured again after the tweaks."""
    state = run.tuning_state if isinstance(run.tuning_state, dict) else {}
    step = state.get("step")
    if not isinstance(step, dict) or step.get("reference") is not True:
        return None
    of = step.get("of")
    return of if isinstance(of, int) and not isinstance(of, bool) else None


def _trials(run: RunRecord, direction: Direction, mode: Mode) -> list[float]:
    found = find_test(run, direction, mode)
    return list(found.trial_means) if found else []


def _effects(baseline: RunRecord, run: RunRecord, reference: RunRecord | None) -> list[Effect]:
    effects = []
    for mode in MODES:
        for direction in DIRECTIONS:
            first, second = _trials(baseline, direction, mode), _trials(run, direction, mode)
            if not first or not second:
                continue
            again = _trials(reference, direction, mode) if reference is not None else []
            drift = abs(statistics.fmean(again) - statistics.fmean(first)) if again else math.nan
            found: Change = change(first, second, spread=None if math.isnan(drift) else drift)
            label = f"{DIRECTION_LABEL[direction]} {MODE_WORDS[mode]}"
            effects.append(Effect(label, found.delta, found.low, found.high, found.verdict,
                                  found.text, drift))  # fmt: skip
    return effects


def contribution(
    baseline: RunRecord, run: RunRecord, tweak_id: str, reference: RunRecord | None = None
) -> Contribution:
    """`run` (the tweak alone) against `baseline`; with `reference` (the baseline measured
    again after the tweaks), a change must also clear how far the baseline moved."""
    return Contribution(tweak_id, run.id, _effects(baseline, run, reference),
                        changed_during_run(run), reference.id if reference else None)  # fmt: skip


def seemed_to_change(contributions: list[Contribution]) -> bool:
    """Whether a step came out faster or slower against the first baseline: only then can the
    minutes since have decided it, and the baseline is measured again."""
    return any(e.verdict in ("faster", "slower") for c in contributions for e in c.effects)


def contributions(runs: list[RunRecord]) -> list[Contribution]:
    """Every "Find what helps" step among `runs` whose baseline is among them too (and that
    baseline measured again, when it is among them)."""
    by_id = {r.id: r for r in runs if r.id is not None}
    again = {of: r for r in runs if (of := reference_of(r)) is not None}
    found = []
    for run in runs:
        step = step_of(run)
        if step is None or step[1] not in by_id:
            continue
        found.append(contribution(by_id[step[1]], run, step[0], again.get(step[1])))
    return found


def drift_words(contributions: list[Contribution]) -> str | None:
    """Why a step's gain may read "no change detected": the baseline moved by itself. None
    when the baseline was not measured again."""
    c = next((c for c in contributions if c.reference_run_id is not None), None)
    if c is None:
        return None
    moved = [f"{e.drift:.0f} Mbit/s {e.label}" for e in c.effects if not math.isnan(e.drift)]
    if not moved:
        return None
    return (
        f"The baseline measured again after the tweaks (run {c.reference_run_id}), nothing "
        f"changed, came out {' and '.join(moved)} apart from the first: a tweak alone counts "
        "only beyond that."
    )
