"""Find what helps: each recommended tweak on its own against the baseline, with the same plan
and the interval rule, then only the helpful ones applied together and kept.

Used by the one-click flow (when the tweaks together helped and there is more than one to tell
apart) and by the "Find what helps" mode (`sbctune demo --find`, the GUI's Results). Each
step applies one tweak under the guard, measures while holding it, and reverts it; its run is
stored with `tuning_state["step"]`, so every export shows the same contributions
(sbctune.compare.attribution). When a step came out faster or slower, the baseline is measured
again after the last one, nothing applied: a change must clear how far it moved by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sbctune import tuning as tuning_api
from sbctune.compare.attribution import contribution, seemed_to_change
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.inventory.model import Inventory
from sbctune.measure.plans import Plan
from sbctune.tuning import AppliedSession
from sbctune.tuning.model import PlannedTweak, TweakOutcome
from sbctune.tuning.words import (
    NOT_POSSIBLE_HERE,
    detail_words,
    left_out_words,
    status_words,
    tweak_title,
)
from sbctune.workflow.estimate import (
    STEP_OVERHEAD_SECONDS,
    measure_seconds,
    per_tweak_seconds,
    runs_to_tell_apart,
)
from sbctune.workflow.flow_types import (
    Attribution,
    FlowEvent,
    MeasuringAlone,
    StepPlanned,
    TuningEvent,
)
from sbctune.workflow.link_consent import plan_options

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


class FlowContext(Protocol):
    """What the steps share (sbctune.workflow.steps.FlowContext), as far as this needs it."""

    applied: AppliedSession | None  # set: a cancel reverts what is applied

    def tuning_now(
        self, applied: AppliedSession, state: Literal["guarded", "confirmed", "reverted"]
    ) -> None: ...

    @property
    def session(self) -> Session: ...

    @property
    def inventory(self) -> Inventory: ...

    @property
    def nic(self) -> str | None: ...

    @property
    def options(self) -> FlowOptionsLike: ...

    @property
    def history(self) -> History: ...

    @property
    def baseline(self) -> RunRecord | None: ...

    @property
    def emit(self) -> Callable[[FlowEvent], None]: ...

    async def measure(
        self, step: str, tuning_state: dict[str, Any] | None, *, of: dict[str, Any] | None = None
    ) -> RunRecord: ...


class FlowOptionsLike(Protocol):
    @property
    def plan(self) -> Plan: ...

    @property
    def guard_seconds(self) -> int: ...

    @property
    def allow_link_restart(self) -> bool: ...


__all__ = ["STEP_OVERHEAD_SECONDS", "estimate_seconds", "find_what_helps", "plan_seconds"]


def estimate_seconds(plan: Plan, tweaks: int) -> float:
    """What "Find what helps" takes, shown before it starts: one run of the plan per tweak
    and the baseline again (with its idle probes, as the flow's time left counts it:
    sbctune.workflow.estimate)."""
    return runs_to_tell_apart(tweaks) * per_tweak_seconds(plan)


def plan_seconds(plan: Plan) -> float:
    """One run of the plan (the baseline's): each of its tests once (a plan lists every trial
    as a test of its own), with its idle probes and warm-up, as the flow's time left counts."""
    return measure_seconds(plan)


def left_out_why(item: PlannedTweak | None) -> str:
    """Why Find what helps did not measure a tweak the planner left out: not needed, or not
    possible here, as the plan says it (walk s23: flow control "only for NICs known to need
    it" read "not possible")."""
    if item is None:
        return f"{NOT_POSSIBLE_HERE}: this sbctune has no such tweak"
    return f"{left_out_words(item)}: {item.reason}" if item.reason else left_out_words(item)


def outcome_why(outcome: TweakOutcome | None) -> str:
    """Why a tweak applied on its own was not measured, in words (walk s23: the raw status,
    "not_possible: …", reached Results and the demo's lines)."""
    if outcome is None:
        return status_words("failed")
    detail = detail_words(outcome.detail)
    return f"{status_words(outcome.status)}: {detail}" if detail else status_words(outcome.status)


async def _one(ctx: FlowContext, tweak_id: str, found: Attribution, which: str) -> RunRecord | None:
    """`which`: "1 of 3", said with the run (MeasuringAlone). The tweak's run, when measured."""
    assert ctx.baseline is not None and ctx.baseline.id is not None
    plan = await tuning_api.plan(ctx.session, ctx.inventory, ctx.nic, (tweak_id,),
                                 plan_options(ctx.options.allow_link_restart))  # fmt: skip
    item = next((i for i in plan.items if i.tweak.id == tweak_id), None)
    if item is None or not item.applicable:
        found.not_measured[tweak_id] = left_out_why(item)
        return None
    applied = await tuning_api.apply(ctx.session, plan, guard_seconds=ctx.options.guard_seconds,
                                     history=ctx.history)  # fmt: skip
    ctx.applied = applied  # a cancel reverts it
    outcome = applied.outcome(tweak_id)
    if applied.state != "armed" or outcome is None or outcome.status != "applied":
        if applied.state == "armed":
            await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
        ctx.applied = None
        found.not_measured[tweak_id] = outcome_why(outcome)
        return None
    ctx.tuning_now(applied, "guarded")
    ctx.emit(MeasuringAlone(f"{tweak_title(tweak_id)} on its own, {which}"))
    run = await ctx.measure(f"find:{tweak_id}", None, of={"tweak": tweak_id, "of": ctx.baseline.id})
    await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
    applied.state = "reverted"
    ctx.applied = None
    ctx.tuning_now(applied, "reverted")
    found.contributions.append(contribution(ctx.baseline, run, tweak_id))
    return run


async def _baseline_again(ctx: FlowContext, found: Attribution, runs: dict[str, RunRecord]) -> None:
    """The baseline once more, nothing applied; every step judged again against both."""
    assert ctx.baseline is not None and ctx.baseline.id is not None
    ctx.emit(StepPlanned(1))
    words = ("Find what helps: the baseline again, nothing changed, so that what the minutes "
             "since changed by themselves is not credited to a tweak")  # fmt: skip
    ctx.emit(TuningEvent(words))
    ctx.emit(MeasuringAlone("The baseline again, nothing changed"))
    again = await ctx.measure("find:baseline-again", None,
                              of={"reference": True, "of": ctx.baseline.id})  # fmt: skip
    found.contributions = [contribution(ctx.baseline, runs[c.tweak_id], c.tweak_id, again)
                           for c in found.contributions]  # fmt: skip
    found.reference = again


async def find_what_helps(ctx: FlowContext, tweak_ids: Sequence[str]) -> Attribution:
    """Each tweak alone (nothing else of sbctune's in force), the baseline again when one
    seemed to change something, then the helpful ones kept."""
    found = Attribution()
    runs: dict[str, RunRecord] = {}
    for i, tweak_id in enumerate(tweak_ids):
        ctx.emit(StepPlanned(runs_to_tell_apart(len(tweak_ids) - i)))
        # No time left of its own: the log line stays while the flow's bar counts down (walk
        # 14: "about 3 min" here against "about 1:22"; walk 15: "about 3:09 left" beside the
        # bar's 2:36). The bar's estimate is the one.
        ctx.emit(TuningEvent(f"Find what helps: {tweak_title(tweak_id)} on its own ({i + 1} of "
                             f"{len(tweak_ids)})"))  # fmt: skip
        run = await _one(ctx, tweak_id, found, f"{i + 1} of {len(tweak_ids)}")
        if run is not None:
            runs[tweak_id] = run
    if seemed_to_change(found.contributions):
        await _baseline_again(ctx, found, runs)
    if found.helpful:
        plan = await tuning_api.plan(ctx.session, ctx.inventory, ctx.nic, found.helpful,
                                     plan_options(ctx.options.allow_link_restart))  # fmt: skip
        applied = await tuning_api.apply(ctx.session, plan,
                                         guard_seconds=ctx.options.guard_seconds,
                                         history=ctx.history)  # fmt: skip
        if applied.state == "armed" and applied.reachable:
            ctx.applied = applied
            await tuning_api.confirm(ctx.session, applied.id, history=ctx.history)
            applied.state = "confirmed"
            ctx.tuning_now(applied, "confirmed")
            found.kept = applied
        elif applied.state == "armed":
            await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
    return found
