"""The steps of the one-click flow, each declared once.

A step is a `StepSpec`: an id, the title both front ends show, and an async `run(ctx)` that
does the work through the `FlowContext` and says how it ended. `FLOW_STEPS` is the order the
flow runs them in. The CLI (`sbctune demo`) prints every step's title and outcome from the
flow's events; the GUI lists every step in its sidebar and shows it on its page (a step
without a page of its own gets the generic step page). So a new step, say a latency test, is
one `StepSpec` added to `FLOW_STEPS` here, and it appears in both.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import sbctune.workflow.rules as rules
from sbctune import tuning as tuning_api
from sbctune.advice import advise
from sbctune.catalog import load_catalog
from sbctune.compare import compare
from sbctune.compare.calibration import calibrate, report_lines
from sbctune.compare.words import verdict_lines
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.inventory.model import Inventory
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.plans import DIRECTION_LABEL, MODE_WORDS, Plan
from sbctune.tuning import AppliedSession
from sbctune.tuning.changes import read_back
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.words import tweak_title
from sbctune.wording import counted
from sbctune.workflow.attributing import find_what_helps
from sbctune.workflow.flow_types import (
    Attribution,
    FlowEvent,
    FlowResult,
    FlowTuning,
    GuardHeld,
    PartialKept,
    TuningEvent,
    TweaksPlanned,
)
from sbctune.workflow.keeping import NO_INTERVAL, NOTHING_TO_GAIN, decide, told_apart
from sbctune.workflow.link_consent import held_for_link, held_note, plan_options
from sbctune.workflow.measuring import MeasureRequest, measure_and_keep

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

Status = Literal["done", "skipped", "failed"]
FlowTuningState = Literal["guarded", "confirmed", "reverted"]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FlowOptions:
    plan: Plan
    nic: str | None = None
    endpoint_kind: EndpointKind = "builtin"
    iperf3_path: str | None = None
    tweak_ids: tuple[str, ...] | None = None  # None: the recommended tweaks that apply here
    guard_seconds: int = 90
    tune: bool = True
    allow_wrong_route: bool = False
    calibrate: bool = False  # measure the baseline twice (A/A) and keep the run-to-run spread
    # The user agreed to changes that briefly drop the link of the NIC the session runs over
    # (sbctune.workflow.link_consent): planned with it, applied under the guard and NM's
    # checkpoint. Without it such tweaks are held back, and the result says so.
    allow_link_restart: bool = False


@dataclass
class FlowContext:
    """What the steps share while the flow runs; each step reads and fills in its part."""

    session: Session
    inventory: Inventory
    inventory_id: int
    options: FlowOptions
    history: History
    emit: Callable[[FlowEvent], None]
    nic: str | None
    irqs: tuple[int, ...] = ()
    baseline: RunRecord | None = None
    after: RunRecord | None = None
    applied: AppliedSession | None = None  # the tuning this flow applied and keeps in force
    # The session being applied (its id, every change it may make) until apply returns: a
    # cancel meanwhile puts it back (one_click).
    applying: tuple[str, list[Change]] | None = None
    result: FlowResult | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # room for a new step's findings

    async def measure(
        self, step: str, tuning_state: dict[str, Any] | None, *, of: dict[str, Any] | None = None
    ) -> RunRecord:
        """One measurement with the flow's plan, stored; on cancel the tests measured so far
        are stored, marked incomplete, and announced with `PartialKept` (then it goes on)."""
        o = self.options
        request = MeasureRequest(
            o.plan,
            nic=self.nic,
            nic_irqs=self.irqs,
            endpoint=o.endpoint_kind,
            iperf3_path=o.iperf3_path,
            allow_wrong_route=o.allow_wrong_route,
            inventory_id=self.inventory_id,
            tuning_state=tuning_state,
            step=of,
            held_for_link=tuple(self.result.held_for_link) if self.result else (),
        )
        # The flow's session on trial is held while it measures (sbctune.workflow.guard_hold):
        # its front end shows the guard's deadline as the Pi has it, then the fresh countdown.
        trial = self.applied is not None and self.applied.state == "armed"
        if trial:
            self.emit(GuardHeld(True))
        try:
            measured = await measure_and_keep(
                self.session,
                self.history,
                request,
                on_event=self.emit,
                on_partial=lambda kept: self.emit(PartialKept(step, kept.record)),
                on_hold=lambda hold: self.emit(GuardHeld(True, hold)),
            )
        finally:
            if trial:
                self.emit(GuardHeld(False))
        return measured.record

    def tuning_now(self, applied: AppliedSession, state: FlowTuningState) -> None:
        """The flow's session changed on the Pi: its front end shows what is in force."""
        self.emit(FlowTuning(applied, state))


@dataclass(frozen=True)
class StepOutcome:
    status: Status
    detail: str = ""
    run_id: int | None = None  # the run a measuring step stored


@dataclass(frozen=True)
class StepSpec:
    id: str
    title: str  # shown by the CLI's progress lines, the GUI's sidebar and status bar
    run: Callable[[FlowContext], Awaitable[StepOutcome]]
    # Why the step does not run this time (None: it runs); asked before it is announced, so a
    # skipped step never shows as started.
    skip: Callable[[FlowContext], str | None] = lambda ctx: None


# ---------------------------------------------------------------------- the steps
async def _baseline(ctx: FlowContext) -> StepOutcome:
    ctx.baseline = await ctx.measure("baseline", None)
    return StepOutcome("done", f"run {ctx.baseline.id}", run_id=ctx.baseline.id)


async def _calibrate(ctx: FlowContext) -> StepOutcome:
    """A second baseline with nothing changed: the run-to-run spread of this Pi and network
    (sbctune.compare.calibration), which the results' verdicts then use."""
    assert ctx.baseline is not None
    again = await ctx.measure("calibrate", None)
    cal = calibrate(ctx.history, ctx.baseline, again)
    ctx.extra["calibration"] = cal
    spread = ", ".join(report_lines(ctx.baseline, again))
    return StepOutcome("done", f"run {again.id}: {spread}", run_id=again.id)


async def _plan(ctx: FlowContext) -> tuning_api.TuningPlan:
    """The recommended tweaks (or the chosen ones) planned with the user's consent, if given;
    those held back for the link are kept in the result, so results and reports name them."""
    options = ctx.options
    plan = await tuning_api.plan(ctx.session, ctx.inventory, ctx.nic, options.tweak_ids,
                                 plan_options(options.allow_link_restart))  # fmt: skip
    assert ctx.result is not None
    held = ctx.result.held_for_link = [item.tweak.id for item in held_for_link(plan.items)]
    if not held:
        return plan
    # Left out of the session altogether: its outcomes then never call them "not possible".
    rest = [item for item in plan.items if item.tweak.id not in held]
    return replace(plan, items=rest, tweak_ids=[item.tweak.id for item in rest])


def _with_held(ctx: FlowContext, detail: str) -> str:
    held = ctx.result.held_for_link if ctx.result is not None else []
    return f"{detail}. {held_note(held)}" if held else detail


async def _tune(ctx: FlowContext) -> StepOutcome:
    options = ctx.options
    plan = await _plan(ctx)
    if not any(item.applicable for item in plan.items):
        return StepOutcome("skipped", _with_held(ctx, "no recommended tweak applies to this Pi"))
    applied = await tuning_api.apply(
        ctx.session,
        plan,
        guard_seconds=options.guard_seconds,
        on_event=lambda message: ctx.emit(TuningEvent(message)),
        history=ctx.history,
        on_session=lambda session_id, changes: setattr(
            ctx, "applying", (session_id, list(changes))
        ),
    )
    ctx.applying = None
    assert ctx.result is not None
    ctx.result.tuning = applied
    ctx.result.tuning_outcomes = list(applied.outcomes)
    if applied.state != "armed" or not applied.reachable:
        # A failed tweak already reverted the session; an unreachable Pi reverts by itself
        # when the guard runs out. Either way nothing was kept.
        if applied.state == "armed":
            await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
        return StepOutcome("failed", _not_kept(applied))
    ctx.applied = applied  # from here a cancel reverts it
    ctx.tuning_now(applied, "guarded")
    changed = sum(o.status == "applied" for o in applied.outcomes)
    ctx.emit(TweaksPlanned(changed))  # what "Keeping only what helps" may measure one by one
    # Not confirmed yet: measuring again holds the guard, and only what helped is kept.
    return StepOutcome(
        "done",
        _with_held(ctx, f"{counted(changed, 'tweak')} applied under the guard, to be measured"),
    )


async def _measure_again(ctx: FlowContext) -> StepOutcome:
    ctx.after = await ctx.measure("measure_again", None)
    return StepOutcome("done", f"run {ctx.after.id}", run_id=ctx.after.id)


async def _keep(ctx: FlowContext) -> StepOutcome:
    """Confirm the tuning if the measurement says it helped, else revert it and read back that
    every value it touched is as it was (sbctune.workflow.keeping)."""
    applied, result = ctx.applied, ctx.result
    assert applied is not None and result is not None
    assert ctx.baseline is not None and ctx.after is not None
    cal = ctx.extra.get("calibration")
    decision = decide(
        compare([ctx.baseline, ctx.after], cal.spread_mbps if cal else None), ctx.after
    )
    result.keep = decision
    together = [o.tweak_id for o in applied.outcomes if o.status == "applied"]
    if decision.keep and len(together) > 1:
        return await _keep_each(ctx, applied, together)
    if decision.keep:
        try:
            await tuning_api.confirm(ctx.session, applied.id, history=ctx.history)
        except tuning_api.TuningError as exc:  # its guard ran out after all
            ctx.applied = None
            return StepOutcome("failed", f"{decision.reason}; but {exc.message}")
        applied.state = "confirmed"
        ctx.tuning_now(applied, "confirmed")
        return StepOutcome("done", decision.reason)
    await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
    applied.state = "reverted"
    ctx.applied = None
    ctx.tuning_now(applied, "reverted")
    live = await read_back(ctx.session, [c for o in applied.outcomes for c in o.changes])
    differ = [v.change.target for v in live if v.state != "original"]
    result.reverted_as_before = not differ
    if differ:
        return StepOutcome("failed", f"{decision.reason}; reverted, but these read back "
                           "otherwise than before: " + ", ".join(differ[:10]))  # fmt: skip
    if decision.reason == NOTHING_TO_GAIN:
        return StepOutcome("done", f"{NOTHING_TO_GAIN} (every value the tweaks touched reads "
                           "back as before)")  # fmt: skip
    if decision.reason == NO_INTERVAL:
        return StepOutcome("done", f"{NO_INTERVAL}; reverted: your Pi is as it was")
    return StepOutcome("done", f"{decision.reason}; reverted: your Pi is as it was (every value "
                       "the tweaks touched reads back as before)")  # fmt: skip


async def _results(ctx: FlowContext) -> StepOutcome:
    assert ctx.result is not None
    runs = ctx.result.runs
    ctx.result.advice = advise(
        ctx.inventory,
        runs,
        load_catalog(),
        tuning=rules.advice_tuning(ctx.applied, "confirmed"),
        no_help=rules.no_help_of(ctx.result.attribution),  # tried alone here and reverted
    )
    cal = ctx.extra.get("calibration")
    return StepOutcome("done", headline(ctx.result, cal.spread_mbps if cal else None))


async def _keep_each(ctx: FlowContext, applied: AppliedSession, tweaks: list[str]) -> StepOutcome:
    """The tweaks together helped: tell them apart, one at a time, and keep only the helpful."""
    assert ctx.result is not None
    await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
    applied.state = "reverted"
    ctx.applied = None
    ctx.tuning_now(applied, "reverted")
    return _found(ctx, await find_what_helps(ctx, tweaks))


def _found(ctx: FlowContext, found: Attribution) -> StepOutcome:
    assert ctx.result is not None
    ctx.result.attribution = found
    ctx.result.tuning = found.kept
    if found.kept is not None:
        ctx.result.tuning_outcomes = list(found.kept.outcomes)
    if ctx.result.keep is not None:  # the flow's "keep" step: its verdict names what it kept
        ctx.result.keep = told_apart(ctx.result.keep, found.contributions, found.kept is not None)
    lines = [f"{tweak_title(c.tweak_id)}: {c.summary}" for c in found.contributions]
    lines += [f"{tweak_title(t)}: {why}" for t, why in found.not_measured.items()]
    if not found.helpful:
        return StepOutcome("done", f"{NOTHING_TO_GAIN}; " + "; ".join(lines))
    kept = ", ".join(tweak_title(t) for t in found.helpful)
    return StepOutcome("done", f"kept {kept}; " + "; ".join(lines))


async def _find(ctx: FlowContext) -> StepOutcome:
    """ "Find what helps": every recommended tweak that applies here, one at a time."""
    planned = await _plan(ctx)
    tweaks = [i.tweak.id for i in planned.items if i.applicable]
    if not tweaks:
        return StepOutcome("skipped", _with_held(ctx, "no recommended tweak applies to this Pi"))
    outcome = _found(ctx, await find_what_helps(ctx, tweaks))
    return StepOutcome(outcome.status, _with_held(ctx, outcome.detail), outcome.run_id)


async def announce_tweaks(ctx: FlowContext, steps: Sequence[StepSpec]) -> None:
    """Before the first step, how many tweaks the flow plans to apply together: "Keeping only
    what helps" may measure each alone, and the time left counts those runs from the start.
    Only for the estimate: a plan that cannot be read now is read again by the tuning step,
    which reports its error."""
    if KEEP not in steps or not ctx.options.tune:
        return
    try:
        plan = await _plan(ctx)
    except Exception as exc:  # the tuning step meets it again and says it
        log.info("flow: the tweaks could not be planned before the baseline: %s", exc)
        return
    ctx.emit(TweaksPlanned(to_change(plan.items)))


def to_change(items: Sequence[PlannedTweak]) -> int:
    """The tweaks the tuning step will change, as it counts them after applying (`"applied"`):
    one already so is not measured alone (walk 15, problem 2: the first estimate counted the
    lab's offloads, already on, as a fourth tweak to tell apart: ~1 min too long)."""
    return sum(item.applicable and not item.already for item in items)


BASELINE = StepSpec("baseline", "Baseline measurement", _baseline)
TUNE = StepSpec(
    "tune",
    "Tuning under the auto-revert guard",
    _tune,
    skip=lambda ctx: None if ctx.options.tune else "tuning not requested",
)
MEASURE_AGAIN = StepSpec(
    "measure_again",
    "Measuring again",
    _measure_again,
    skip=lambda ctx: None if ctx.applied is not None else "nothing was changed",
)
KEEP = StepSpec(
    "keep",
    "Keeping only what helps",
    _keep,
    skip=lambda ctx: None if ctx.applied is not None else "nothing was changed",
)
RESULTS = StepSpec("results", "Results", _results)
FIND = StepSpec(
    "find",
    "Finding what helps, one tweak at a time",
    _find,
    skip=lambda ctx: None if ctx.options.tune else "tuning not requested",
)
CALIBRATE = StepSpec(
    "calibrate",
    "Measuring the baseline again (A/A calibration)",
    _calibrate,
    skip=lambda ctx: None if ctx.options.calibrate else "calibration not requested",
)

# The order the one-click flow runs them in. Add a new step here (see README, "Where the
# user's path lives").
FLOW_STEPS: tuple[StepSpec, ...] = (BASELINE, TUNE, MEASURE_AGAIN, KEEP, RESULTS)
# "Find what helps": the baseline, then each tweak on its own (`sbctune demo --find`).
FIND_FLOW_STEPS: tuple[StepSpec, ...] = (BASELINE, FIND, RESULTS)
# The flow with an A/A calibration after the baseline (`sbctune demo --calibrate`).
CALIBRATED_FLOW_STEPS: tuple[StepSpec, ...] = (
    BASELINE, CALIBRATE, TUNE, MEASURE_AGAIN, KEEP, RESULTS,
)  # fmt: skip

# Every step's title by id (for a step without a page of its own, e.g. "keep", "find").
FLOW_STEP_TITLES: dict[str, str] = {
    s.id: s.title for s in (*FLOW_STEPS, *FIND_FLOW_STEPS, *CALIBRATED_FLOW_STEPS)
}


def _not_kept(applied: AppliedSession) -> str:
    failed = [
        f"{tweak_title(o.tweak_id)}: {o.detail}" for o in applied.outcomes if o.status == "failed"
    ]
    if failed:
        return "tuning failed and was reverted (" + "; ".join(failed) + ")"
    return "the Pi did not answer a new connection after tuning; its guard reverts the changes"


def headline(result: FlowResult, calibration: dict[str, float] | None = None) -> str:
    parts = []
    for record in result.runs:
        label = "before" if record is result.baseline else "after"
        figures = ", ".join(
            f"{DIRECTION_LABEL[t.direction]} {MODE_WORDS[t.mode]} {t.mean_mbps:.0f}"
            for t in record.tests
            if t.mean_mbps is not None
        )
        parts.append(f"{label}: {figures} Mbit/s")
    if len(result.runs) > 1:  # the change with its 95 % interval (sbctune.compare)
        parts.extend(verdict_lines(compare(result.runs, calibration)))
    if result.keep is not None:
        parts.append(result.keep.reason)
    if result.attribution is not None:
        parts.extend(
            f"{tweak_title(c.tweak_id)} on its own: {c.summary}"
            for c in result.attribution.contributions
        )
    return "; ".join(parts)
