"""Baseline / Measure again on their own (outside the one-click flow): run a plan live with the
iperf3 install offer, store the run, and keep a cancelled run's tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import sbctune.workflow.rules as rules
from sbctune import aio
from sbctune.errors import UserError
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.measure import runner
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.plans import Plan
from sbctune.measure.steady import TrialsAdded
from sbctune.workflow.guard_hold import GuardHold, extra_seconds, holding_guard, planned_seconds
from sbctune.workflow.rules import InstallAsker
from sbctune.workflow.snapshot import Snapshot, take_snapshot
from sbctune.workflow.tuning_read import (
    TuningReading,
    changed_at_test,
    read_tuning,
    run_tuning,
)

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

END_READ_SECONDS = 20.0  # a cancelled run still reads the tuning back, this long at most


@dataclass(frozen=True)
class Measured:
    run: MeasureRun  # as measured (the CLI prints it)
    record: RunRecord  # as the history keeps it
    hold: GuardHold | None = None  # the armed session's guard held while it ran


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
    # Ignored for the record: what a run stores is read back from the Pi at its start and end
    # (sbctune.workflow.tuning_read), never what the caller planned.
    tuning_state: dict[str, Any] | None = None
    hold_guard: bool = True  # heartbeat the armed session's guard (False: let it run out)
    step: dict[str, Any] | None = None  # a "Find what helps" step: {"tweak": ID, "of": RUN}
    # Tweaks the flow held back for the link (no consent): stored with a tuned run, so every
    # report says they were left out (sbctune.history.run_tuning.held_for_link).
    held_for_link: tuple[str, ...] = ()
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
    on_hold: Callable[[GuardHold], None] | None = None,
) -> Measured:
    """Measure (installing iperf3 on the Pi first if it is missing and `ask_install` agrees)
    and store the run with the tuning read back from the Pi at its start and its end. An armed
    tuning session is held for the whole run (sbctune.workflow.guard_hold). Cancelled: the
    tests measured so far are stored, marked incomplete, and given to `on_partial` before the
    cancellation goes on. `on_hold` gets the guard being held (its deadline on the Pi) as soon
    as it is extended for the planned run."""
    started: list[MeasureRun] = []
    hold: GuardHold | None = None

    def seen(event: runner.Event) -> None:
        if isinstance(event, runner.RunStarted):
            started.append(event.run)
            # the route's NIC is known from here: its chip as Inspect names it, for the lines
            event.run.nic_chip = snap.chips.get(event.run.nic or "")
        if isinstance(event, TrialsAdded) and hold is not None:
            hold.extend(extra_seconds(event))  # extra trials hold the guard longer
        if on_event is not None:
            on_event(event)

    start = await read_tuning(session)
    snap = Snapshot(None, request.inventory_id, request.nic_irqs)

    # The session's state and knobs are read with each sample of the run (no extra round trip).
    watch: dict[str, Any] = {"watch": start.watch} if start.watch else {}

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
            **{**watch, **request.options},
        )
        run.pi_state = snap.pi_state
        return run

    try:
        # Held from before the snapshot: reading the Pi can outlast a short guard.
        async with holding_guard(session, start, heartbeat=request.hold_guard,
                                 planned=planned_seconds(request.plan)) as hold:  # fmt: skip
            if hold is not None and on_hold is not None:
                on_hold(hold)
            # the NIC the run goes over, where none was named (`measure` without --nic): the
            # route's, as the runner finds it; else its settings were never read (walk s23:
            # compare listed no offload, ring or RPS change of such runs, only sysctls)
            nic = request.nic or await _route_nic(session)
            snap = await take_snapshot(session, history, nic, irqs=request.nic_irqs,
                                       inventory_id=request.inventory_id)  # fmt: skip
            request = replace(request, inventory_id=snap.inventory_id, nic_irqs=snap.irqs)
            run = await rules.offering_install(session, ask_install, report, attempt)
    except asyncio.CancelledError:
        partial = started[-1] if started else None
        if partial is not None:
            partial.pi_state = snap.pi_state
        end = await _end_reading(session)
        kept = rules.keep_partial(
            history, session, partial, request.plan, request.inventory_id,
            _stored_tuning(request, start, end, partial),
        )  # fmt: skip
        if kept is not None and partial is not None and on_partial is not None:
            on_partial(Measured(partial, kept))
        raise
    end = await read_tuning(session)
    record = rules.save_run(
        history, session, run, request.plan, request.inventory_id,
        _stored_tuning(request, start, end, run),
    )  # fmt: skip
    return Measured(run, record, hold)


async def _route_nic(session: Session) -> str | None:
    """The NIC traffic to this PC leaves the Pi through (None where it cannot be told: the
    runner says why when it measures)."""
    try:
        return (await runner.find_path(session, None)).nic
    except UserError:
        return None


def _stored_tuning(
    request: MeasureRequest, start: TuningReading, end: TuningReading, run: MeasureRun | None
) -> dict[str, Any] | None:
    state = run_tuning(start, end, changed_at_test(run.tuning_watch) if run else None)
    if state is not None and request.held_for_link:
        state = {**state, "held_for_link": list(request.held_for_link)}
    if request.step is None:
        return state
    return {**(state or {"tweaks": [], "read_back": True}), "step": dict(request.step)}


async def _end_reading(session: Session) -> TuningReading:
    """The end reading of a cancelled run (shielded, bounded: the cancel goes on after it)."""
    try:
        return await asyncio.shield(aio.wait_for(read_tuning(session), END_READ_SECONDS))
    except (asyncio.TimeoutError, asyncio.CancelledError):  # not TimeoutError on Python 3.10
        return TuningReading(readable=False)
