"""What each tweak did, from stored runs: the seeds' own method (seed 000 measured the IRQ
affinity, packet steering and the CPU clock one at a time).

"Find what helps" (sbctune.workflow.attributing) measures the baseline, then each tweak on its
own with the same plan; each step's run keeps `tuning_state["step"] = {"tweak": ID, "of":
BASELINE_RUN_ID}`. A tweak's contribution is its run against that baseline, per direction and
mode, as the interval rule gives it (sbctune.compare.interval). Computed from the runs alone, so
every export and front end shows the same table and waterfall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sbctune.compare.interval import Change, change
from sbctune.history.records import DIRECTIONS, MODES, RunRecord
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


@dataclass(frozen=True)
class Contribution:
    tweak_id: str
    run_id: int | None
    effects: list[Effect] = field(default_factory=list)
    changed_during_run: bool = False  # its tuning did not hold: the step proves nothing

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
            "effects": [
                {
                    "label": e.label,
                    "delta_mbps": e.delta,
                    "verdict": e.verdict,
                    "text": e.text,
                    "low_mbps": None if math.isnan(e.low) else e.low,
                    "high_mbps": None if math.isnan(e.high) else e.high,
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


def _effects(baseline: RunRecord, run: RunRecord) -> list[Effect]:
    effects = []
    for mode in MODES:
        for direction in DIRECTIONS:
            first = [t for t in baseline.tests if t.direction == direction and t.mode == mode]
            second = [t for t in run.tests if t.direction == direction and t.mode == mode]
            if not first or not second:
                continue
            found: Change = change(first[-1].trial_means, second[-1].trial_means)
            label = f"{DIRECTION_LABEL[direction]} {MODE_WORDS[mode]}"
            effects.append(Effect(label, found.delta, found.low, found.high, found.verdict,
                                  found.text))  # fmt: skip
    return effects


def contribution(baseline: RunRecord, run: RunRecord, tweak_id: str) -> Contribution:
    return Contribution(tweak_id, run.id, _effects(baseline, run), changed_during_run(run))


def contributions(runs: list[RunRecord]) -> list[Contribution]:
    """Every "Find what helps" step among `runs` whose baseline is among them too."""
    by_id = {r.id: r for r in runs if r.id is not None}
    found = []
    for run in runs:
        step = step_of(run)
        if step is None or step[1] not in by_id:
            continue
        found.append(contribution(by_id[step[1]], run, step[0]))
    return found
