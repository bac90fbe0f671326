"""The one-click flow: baseline → recommended safe tweaks under the guard → measure again →
results. The GUI and the CLI (`sbctune demo`, `sbctune run`) both drive this one function.

Cancelling the task at any point stops the measurement (the runner cleans up both sides) and
reverts whatever tuning this flow applied, before the cancellation propagates.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sbctune import tuning as tuning_api
from sbctune.advice import Advice, advise
from sbctune.advice.inspect import raw_json
from sbctune.catalog import load_catalog
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.inventory.collect import Collection
from sbctune.inventory.model import Inventory
from sbctune.measure import runner
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL, Plan
from sbctune.remote import Session
from sbctune.tuning import AppliedSession, TweakOutcome

log = logging.getLogger(__name__)

Step = Literal["baseline", "tune", "measure_again", "results"]
STEPS: tuple[Step, ...] = ("baseline", "tune", "measure_again", "results")
STEP_TITLE: dict[Step, str] = {
    "baseline": "Baseline measurement",
    "tune": "Tuning under the auto-revert guard",
    "measure_again": "Measuring again",
    "results": "Results",
}


@dataclass(frozen=True)
class FlowOptions:
    plan: Plan
    nic: str | None = None
    endpoint_kind: EndpointKind = "builtin"
    iperf3_path: str | None = None
    tweak_ids: Sequence[str] | None = None  # None: the recommended tweaks that apply here
    guard_seconds: int = 90
    tune: bool = True
    allow_wrong_route: bool = False


@dataclass(frozen=True)
class FlowStep:
    step: Step
    status: Literal["started", "done", "skipped", "failed"]
    detail: str = ""
    run_id: int | None = None  # the run a measuring step stored, when done


@dataclass(frozen=True)
class TuningEvent:
    """A progress message of the tuning session."""

    message: str


FlowEvent = FlowStep | TuningEvent | runner.Event


@dataclass
class FlowResult:
    inventory_id: int
    baseline: RunRecord
    after: RunRecord | None = None
    tuning: AppliedSession | None = None
    advice: Advice | None = None
    tuning_outcomes: list[TweakOutcome] = field(default_factory=list)

    @property
    def runs(self) -> list[RunRecord]:
        return [r for r in (self.baseline, self.after) if r is not None]


def _tuning_state(applied: AppliedSession | None) -> dict[str, Any] | None:
    if applied is None:
        return None
    return {
        "session": applied.id,
        "tweaks": [o.tweak_id for o in applied.outcomes if o.status in ("applied", "already")],
    }


async def one_click(
    session: Session,
    inventory: Inventory,
    options: FlowOptions,
    history: History,
    *,
    on_event: Callable[[FlowEvent], None] | None = None,
    collection: Collection | None = None,
    inventory_id: int | None = None,
) -> FlowResult:
    """`collection`: the raw outputs behind `inventory`, kept with it so that the history can
    export a diagnostics bundle later. `inventory_id`: the inventory is already in the
    history under this id (the GUI saves it when it inspects)."""
    emit: Callable[[FlowEvent], None] = on_event or (lambda event: None)
    target = session.target
    user = session.username
    device = history.add_device(target.host, target.port, user, name=inventory.board.model)
    assert device.id is not None
    if inventory_id is None:
        stored = inventory.to_json()
        if collection is not None:
            stored["raw"] = raw_json(collection)
        inventory_id = history.save_inventory(device.id, stored)
    # The NIC under test: the one asked for, else the one the route to this PC leaves through.
    nic = options.nic or (await runner.find_path(session, None)).route_dev
    nic_info = inventory.nic(nic) if nic else None
    irqs = tuple(nic_info.irqs) if nic_info else ()

    async def measure_once(step: Step, state: dict[str, Any] | None) -> RunRecord:
        emit(FlowStep(step, "started", STEP_TITLE[step]))
        run = await runner.measure(
            session,
            options.plan,
            nic=nic,
            endpoint=options.endpoint_kind,
            iperf3_path=options.iperf3_path,
            on_event=emit,
            allow_wrong_route=options.allow_wrong_route,
            nic_irqs=irqs,
        )
        run_id = save_measurement(
            history, target, user, run, options.plan, inventory_id, tuning_state=state
        )
        emit(FlowStep(step, "done", f"run {run_id}", run_id=run_id))
        return history.run(run_id)

    result = FlowResult(inventory_id, await measure_once("baseline", None))
    applied: AppliedSession | None = None
    try:
        if options.tune:
            emit(FlowStep("tune", "started", STEP_TITLE["tune"]))
            plan = await tuning_api.plan(session, inventory, nic, options.tweak_ids)
            chosen = [item for item in plan.items if item.applicable]
            if not chosen:
                emit(FlowStep("tune", "skipped", "no recommended tweak applies to this Pi"))
            else:
                applied = await tuning_api.apply(
                    session,
                    plan,
                    guard_seconds=options.guard_seconds,
                    on_event=lambda message: emit(TuningEvent(message)),
                    history=history,
                )
                result.tuning = applied
                result.tuning_outcomes = list(applied.outcomes)
                if applied.state != "armed" or not applied.reachable:
                    # A failed tweak already reverted the session; an unreachable Pi reverts
                    # by itself when the guard runs out. Either way nothing was kept.
                    detail = _not_kept(applied)
                    if applied.state == "armed":
                        await tuning_api.revert(session, applied.id, history=history)
                    applied = None
                    emit(FlowStep("tune", "failed", detail))
                else:
                    await tuning_api.confirm(session, applied.id, history=history)
                    applied.state = "confirmed"
                    changed = sum(o.status == "applied" for o in applied.outcomes)
                    emit(FlowStep("tune", "done", f"{changed} tweak(s) applied and confirmed"))
        else:
            emit(FlowStep("tune", "skipped", "tuning not requested"))

        if applied is not None:
            result.after = await measure_once("measure_again", _tuning_state(applied))
        else:
            emit(FlowStep("measure_again", "skipped", "nothing was changed"))
    except asyncio.CancelledError:
        if applied is not None:
            log.info("flow cancelled: reverting tuning session %s", applied.id)
            await asyncio.shield(tuning_api.revert(session, applied.id, history=history))
        raise

    emit(FlowStep("results", "started", STEP_TITLE["results"]))
    in_force = None
    if applied is not None:
        in_force = {"tweaks": [{"id": o.tweak_id, "status": o.status} for o in applied.outcomes]}
    result.advice = advise(inventory, result.runs, load_catalog(), tuning=in_force)
    emit(FlowStep("results", "done", _headline(result)))
    return result


def _not_kept(applied: AppliedSession) -> str:
    failed = [f"{o.tweak_id}: {o.detail}" for o in applied.outcomes if o.status == "failed"]
    if failed:
        return "tuning failed and was reverted (" + "; ".join(failed) + ")"
    return "the Pi did not answer a new connection after tuning; its guard reverts the changes"


def _headline(result: FlowResult) -> str:
    parts = []
    for record in result.runs:
        label = "before" if record is result.baseline else "after"
        figures = ", ".join(
            f"{DIRECTION_LABEL[t.direction]} {MODE_LABEL[t.mode].lower()} {t.mean_mbps:.0f}"
            for t in record.tests
            if t.mean_mbps is not None
        )
        parts.append(f"{label}: {figures} Mbit/s")
    return "; ".join(parts)
