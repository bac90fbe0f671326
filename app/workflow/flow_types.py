"""What the one-click flow tells its front end as it runs, and what it hands back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sbctune.advice import Advice
from sbctune.compare.attribution import Contribution
from sbctune.history.records import RunRecord
from sbctune.measure import runner
from sbctune.tuning import AppliedSession, TweakOutcome
from sbctune.workflow.guard_hold import GuardHold
from sbctune.workflow.keeping import KeepDecision

StepStatus = Literal["started", "done", "skipped", "failed"]


@dataclass(frozen=True)
class FlowStep:
    step: str  # a StepSpec id: "baseline", "tune", "measure_again", "results", ...
    status: StepStatus
    detail: str = ""
    run_id: int | None = None  # the run a measuring step stored, when done


@dataclass(frozen=True)
class TuningEvent:
    """A progress message of the tuning session."""

    message: str


@dataclass(frozen=True)
class PartialKept:
    """A measuring step was cancelled: the tests it measured are stored, marked incomplete."""

    step: str
    record: RunRecord


@dataclass(frozen=True)
class StepPlanned:
    """The running step will measure the plan this many more times from now (one per tweak
    measured on its own), so the flow's time left counts them (sbctune.workflow.estimate)."""

    measurements: int


@dataclass(frozen=True)
class MeasuringAlone:
    """A step without a measuring page of its own (keeping only what helps, find what helps)
    measures next: what, in words ("Receive packet steering on its own, 1 of 3"). The desktop
    app shows that run live, as it shows the baseline (walk 15: these runs had no live view)."""

    words: str


@dataclass(frozen=True)
class TweaksPlanned:
    """How many tweaks the flow means to apply together: said before the baseline (from the
    plan), then again with what the tuning applied. If they help, "Keeping only what helps"
    measures each of them alone, so the time left counts those runs from the start (walk 14:
    the estimate jumped from 0:39 to 3:09 when that step began)."""

    count: int


@dataclass(frozen=True)
class FlowCancelled:
    """The flow was cancelled: what the Pi's tuning is now, as read back from it (the s13 walk:
    the window said "the tuning (if any) was reverted" over a Tune log ending "applied")."""

    words: str


@dataclass(frozen=True)
class FlowTuning:
    """The flow's tuning on the Pi changed: the session the tuning calls read back (applied,
    with each tweak's outcome, its guard armed), and what it is now: "guarded" (on trial,
    reverting by itself at its deadline), "confirmed" (kept) or "reverted" (walk 14: during the
    flow the window showed an old "Reverted" box while three tweaks were in force)."""

    applied: AppliedSession
    state: Literal["guarded", "confirmed", "reverted"]


@dataclass(frozen=True)
class GuardHeld:
    """A flow measurement started (`held`, with the guard it holds on the Pi) or ended (its
    guard counts down afresh from then) while the flow's session is on trial."""

    held: bool
    hold: GuardHold | None = None


FlowEvent = (
    FlowStep
    | TuningEvent
    | PartialKept
    | StepPlanned
    | MeasuringAlone
    | TweaksPlanned
    | FlowCancelled
    | FlowTuning
    | GuardHeld
    | runner.Event
)


@dataclass
class Attribution:
    """What "Find what helps" measured (sbctune.workflow.attributing)."""

    contributions: list[Contribution] = field(default_factory=list)
    not_measured: dict[str, str] = field(default_factory=dict)  # tweak -> why (not possible, ...)
    kept: AppliedSession | None = None  # the helpful tweaks, applied together and confirmed
    reference: RunRecord | None = None  # the baseline measured again after the tweaks alone

    @property
    def helpful(self) -> list[str]:
        return [c.tweak_id for c in self.contributions if c.helps]

    def run_ids(self) -> list[int]:
        """Each tweak's own run and the baseline measured again: an export of the results holds
        them too, or its table of what each tweak did is missing or judged without the floor."""
        ids = [c.run_id for c in self.contributions]
        ids.append(self.reference.id if self.reference is not None else None)
        return [i for i in ids if i is not None]


@dataclass
class FlowResult:
    inventory_id: int
    baseline: RunRecord | None = None
    after: RunRecord | None = None
    tuning: AppliedSession | None = None
    advice: Advice | None = None
    tuning_outcomes: list[TweakOutcome] = field(default_factory=list)
    keep: KeepDecision | None = None  # whether the measured tuning helped, and why
    reverted_as_before: bool | None = None  # reverted: every touched value read back as before
    attribution: Attribution | None = None  # each tweak alone, when they were told apart
    # Tweaks held back because they would drop the SSH NIC's link and the user did not agree
    # (sbctune.workflow.link_consent); results and reports name them.
    held_for_link: list[str] = field(default_factory=list)

    @property
    def runs(self) -> list[RunRecord]:
        return [r for r in (self.baseline, self.after) if r is not None]
