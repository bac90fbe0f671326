"""Keep only what helps: the rule that decides whether measured tuning stays.

Tuning is kept when the measurement says it helped beyond noise in some direction (its whole
95 % interval above the floor, `sbctune.compare.interval`) or in latency under load (each
trial's added latency, the same rule with a 5 ms floor: `sbctune.compare.latency`), and made
nothing worse by the same rules: a tweak that adds latency under load beyond noise is not kept
even when it is faster; one that only lowers latency under load is kept. Runs that kept no
per-trial latency (older runs) are judged on throughput alone: their one figure per kind of load
has no interval (one busy lab run moved it by 16 ms with nothing changed). "No change detected",
"too noisy to tell" and "unknown" (one trial) are not a gain: the tweaks go back. A run whose tuning
changed while it ran (its guard fired, `sbctune.history.run_tuning`) proves nothing, so its
tuning is not kept either.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.compare.attribution import Contribution
from sbctune.compare.latency import interval_text
from sbctune.compare.model import Comparison
from sbctune.history.records import RunRecord
from sbctune.history.run_tuning import change_text, changed_during_run
from sbctune.measure.plans import DIRECTION_LABEL, MODE_WORDS
from sbctune.tuning.words import tweak_title

NOTHING_TO_GAIN = "nothing to gain; your Pi is as it was"
STOPPED_EARLY = ("not kept: the measurement with the tuning stopped before it finished (the link "
                 "was lost, or it was stopped), so it cannot show a gain; measure again in full "
                 "to judge the tuning")  # fmt: skip
NO_INTERVAL = ("not kept: one trial per direction gives no interval, so no gain can be shown "
               "(measure with 2 or more trials)")  # fmt: skip


@dataclass(frozen=True)
class KeepDecision:
    keep: bool
    helped: list[str] = field(default_factory=list)  # "Pi → PC half-duplex: faster by ..."
    worse: list[str] = field(default_factory=list)
    reason: str = ""  # in words, for both front ends

    @property
    def text(self) -> str:
        return self.reason


def decide(comparison: Comparison, after: RunRecord) -> KeepDecision:
    """Whether the tuning measured in `after` (the comparison's last run) is kept."""
    if changed_during_run(after):
        return KeepDecision(False, reason=f"not kept: {change_text(after)}")
    if not after.complete:  # walk19: a link lost in Measure again read "nothing to gain"
        return KeepDecision(False, reason=STOPPED_EARLY)
    helped, worse, verdicts = [], [], []
    for row in comparison.rows:
        cell = row.cells[-1] if len(row.cells) > 1 else None
        if cell is None:
            continue
        what = f"{DIRECTION_LABEL[row.direction]} {MODE_WORDS[row.mode]}"
        verdicts.append(cell.verdict)
        if cell.verdict == "faster":
            helped.append(f"{what}: {cell.verdict_text}")
        elif cell.verdict == "slower":
            worse.append(f"{what}: {cell.verdict_text}")
    for latency in comparison.latency:
        last = latency.cells[-1] if len(latency.cells) > 1 else None
        moved = last.change if last is not None else None
        if moved is None or moved.verdict not in ("faster", "slower"):
            continue
        what = f"latency under load ({latency.label}): {interval_text(moved)}"
        (worse if moved.verdict == "faster" else helped).append(what)  # "faster": more ms
    if worse:
        return KeepDecision(False, helped, worse, "not kept, it made things worse: "
                            + "; ".join(worse))  # fmt: skip
    if verdicts and all(v == "unknown" for v in verdicts):
        return KeepDecision(False, helped, worse, NO_INTERVAL)
    if not helped:
        return KeepDecision(False, helped, worse, NOTHING_TO_GAIN)
    return KeepDecision(True, helped, worse, "kept, it helped: " + "; ".join(helped))


def on_trial_words(decision: KeepDecision) -> str:
    """What the measurement says of tuning still on trial that the user keeps or reverts by
    hand (Tune, then Measure again), by the keep rule above. Walk 17: Results said only "press
    Keep to keep these settings" over a table saying "no change detected" in every direction."""
    said = "Measured against the baseline"
    if decision.keep:
        return f"{said}, it helped: {'; '.join(decision.helped)}."
    if decision.worse:
        return (f"{said}, it made things worse: {'; '.join(decision.worse)}. Revert puts the "
                "Pi back as it was.")  # fmt: skip
    if decision.reason == NO_INTERVAL:
        return f"{said} with one trial per direction: no gain can be shown."
    if decision.reason != NOTHING_TO_GAIN:  # its tuning changed while it ran
        return f"{said}: {decision.reason.removeprefix('not kept: ')}."
    return (f"{said}: no gain beyond noise in any direction, so Keep would keep settings that "
            "did not help; Revert puts the Pi back as it was.")  # fmt: skip


NONE_ALONE = ("not kept: together the tweaks helped, but none did alone beyond noise; your Pi "
              "is as it was")  # fmt: skip
NOT_APPLIED = "not kept: the tweaks that helped alone could not be applied together"


def told_apart(
    decision: KeepDecision, contributions: list[Contribution], kept: bool
) -> KeepDecision:
    """The verdict once the tweaks that helped together were measured each alone: what was
    kept, by its own figure (walk 15: "kept, it helped: faster by 97 to 106" was the three
    tweaks' figure, under a box listing only the governor, which alone gave 97 to 102)."""
    helped = [f"{tweak_title(c.tweak_id)}: {c.summary}" for c in contributions if c.helps]
    if not helped:
        return KeepDecision(False, [], decision.worse, NONE_ALONE)
    if not kept:
        return KeepDecision(False, helped, decision.worse, NOT_APPLIED)
    return KeepDecision(True, helped, decision.worse,
                        "kept what helped on its own: " + "; ".join(helped))  # fmt: skip
