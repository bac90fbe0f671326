"""The steps of the one-click flow, each declared once.

A step is a `StepSpec`: an id, the title both front ends show, and an async `run(ctx)` that
does the work through the `FlowContext` and says how it ended. `FLOW_STEPS` is the order the
flow runs them in. The CLI (`sbctune demo`) prints every step's title and outcome from the
flow's events; the GUI lists every step in its sidebar and shows it on its page (a step
without a page of its own gets the generic step page). So a new step, say a latency test, is
one `StepSpec` added to `FLOW_STEPS` here, and it appears in both.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

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
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL, Plan
from sbctune.remote import Session
from sbctune.tuning import AppliedSession
from sbctune.tuning.words import tweak_title
from sbctune.workflow.flow_types import FlowEvent, FlowResult, PartialKept, TuningEvent
from sbctune.workflow.measuring import MeasureRequest, measure_and_keep

Status = Literal["done", "skipped", "failed"]


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
    result: FlowResult | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # room for a new step's findings

    async def measure(self, step: str, tuning_state: dict[str, Any] | None) -> RunRecord:
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
        )
        measured = await measure_and_keep(
            self.session,
            self.history,
            request,
            on_event=self.emit,
            on_partial=lambda kept: self.emit(PartialKept(step, kept.record)),
        )
        return measured.record


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


async def _tune(ctx: FlowContext) -> StepOutcome:
    options = ctx.options
    plan = await tuning_api.plan(ctx.session, ctx.inventory, ctx.nic, options.tweak_ids)
    if not any(item.applicable for item in plan.items):
        return StepOutcome("skipped", "no recommended tweak applies to this Pi")
    applied = await tuning_api.apply(
        ctx.session,
        plan,
        guard_seconds=options.guard_seconds,
        on_event=lambda message: ctx.emit(TuningEvent(message)),
        history=ctx.history,
    )
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
    await tuning_api.confirm(ctx.session, applied.id, history=ctx.history)
    applied.state = "confirmed"
    changed = sum(o.status == "applied" for o in applied.outcomes)
    return StepOutcome("done", f"{changed} tweak(s) applied and confirmed")


async def _measure_again(ctx: FlowContext) -> StepOutcome:
    ctx.after = await ctx.measure("measure_again", rules.run_tuning_state(ctx.applied, "confirmed"))
    return StepOutcome("done", f"run {ctx.after.id}", run_id=ctx.after.id)


async def _results(ctx: FlowContext) -> StepOutcome:
    assert ctx.result is not None
    runs = ctx.result.runs
    ctx.result.advice = advise(
        ctx.inventory, runs, load_catalog(), tuning=rules.advice_tuning(ctx.applied, "confirmed")
    )
    cal = ctx.extra.get("calibration")
    return StepOutcome("done", headline(ctx.result, cal.spread_mbps if cal else None))


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
RESULTS = StepSpec("results", "Results", _results)
CALIBRATE = StepSpec(
    "calibrate",
    "Measuring the baseline again (A/A calibration)",
    _calibrate,
    skip=lambda ctx: None if ctx.options.calibrate else "calibration not requested",
)

# The order the one-click flow runs them in. Add a new step here (see README, "Where the
# user's path lives").
FLOW_STEPS: tuple[StepSpec, ...] = (BASELINE, TUNE, MEASURE_AGAIN, RESULTS)
# The flow with an A/A calibration after the baseline (`sbctune demo --calibrate`).
CALIBRATED_FLOW_STEPS: tuple[StepSpec, ...] = (BASELINE, CALIBRATE, TUNE, MEASURE_AGAIN, RESULTS)


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
            f"{DIRECTION_LABEL[t.direction]} {MODE_LABEL[t.mode].lower()} {t.mean_mbps:.0f}"
            for t in record.tests
            if t.mean_mbps is not None
        )
        parts.append(f"{label}: {figures} Mbit/s")
    if len(result.runs) > 1:  # the change with its 95 % interval (sbctune.compare)
        parts.extend(verdict_lines(compare(result.runs, calibration)))
    return "; ".join(parts)
