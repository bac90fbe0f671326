"""Baseline / Measure again on their own (outside the one-click flow): run a plan live with the
iperf3 install offer, store the run, and keep a cancelled run's tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import sbctune.workflow.rules as rules
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.measure import runner
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.plans import Plan
from sbctune.remote import Session
from sbctune.workflow.rules import InstallAsker
from sbctune.workflow.snapshot import take_snapshot


@dataclass(frozen=True)
class Measured:
    run: MeasureRun  # as measured (the CLI prints it)
    record: RunRecord  # as the history keeps it


@dataclass(frozen=True)
class MeasureRequest:
    plan: Plan
    nic: str | None = None
    nic_irqs: tuple[int, ...] = ()
    endpoint: EndpointKind = "builtin"
    iperf3_path: str | None = None
    allow_wrong_route: bool = False
    pc_port: int = 0
    inventory_id: int | None = None
    tuning_state: dict[str, Any] | None = None  # the tweaks in force while it runs
    options: dict[str, Any] = field(default_factory=dict)  # more runner.measure options


async def measure_and_keep(
    session: Session,
    history: History,
    request: MeasureRequest,
    *,
    on_event: Callable[[runner.Event], None] | None = None,
    ask_install: InstallAsker = rules.never_install,
    report: Callable[[str], None] = lambda text: None,
    on_partial: Callable[[Measured], None] | None = None,
) -> Measured:
    """Measure (installing iperf3 on the Pi first if it is missing and `ask_install` agrees)
    and store the run. Cancelled: the tests measured so far are stored, marked incomplete,
    and given to `on_partial` before the cancellation goes on."""
    started: list[MeasureRun] = []

    def seen(event: runner.Event) -> None:
        if isinstance(event, runner.RunStarted):
            started.append(event.run)
        if on_event is not None:
            on_event(event)

    snap = await take_snapshot(session, history, request.nic, irqs=request.nic_irqs,
                               inventory_id=request.inventory_id)  # fmt: skip
    request = replace(request, inventory_id=snap.inventory_id, nic_irqs=snap.irqs)

    async def attempt() -> MeasureRun:
        run = await runner.measure(
            session,
            request.plan,
            nic=request.nic,
            endpoint=request.endpoint,
            iperf3_path=request.iperf3_path,
            on_event=seen,
            allow_wrong_route=request.allow_wrong_route,
            nic_irqs=request.nic_irqs,
            pc_port=request.pc_port,
            **request.options,
        )
        run.pi_state = snap.pi_state
        return run

    try:
        run = await rules.offering_install(session, ask_install, report, attempt)
    except asyncio.CancelledError:
        partial = started[-1] if started else None
        if partial is not None:
            partial.pi_state = snap.pi_state
        kept = rules.keep_partial(
            history, session, partial, request.plan, request.inventory_id, request.tuning_state
        )
        if kept is not None and partial is not None and on_partial is not None:
            on_partial(Measured(partial, kept))
        raise
    record = rules.save_run(
        history, session, run, request.plan, request.inventory_id, request.tuning_state
    )
    return Measured(run, record)
