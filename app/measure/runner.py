"""Run a test plan between the Pi and this PC, live, and return the figures.

The Pi runs the real iperf3 client bound to the NIC under test; this PC serves each direction
on its own endpoint and port (full duplex is two clients at once, one of them reversed, as the
seed authors ran it). Cancelling the task stops everything on both sides.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.measure.busy import TestAlreadyRunning, host_key, measuring, refuse_if_busy
from sbctune.measure.install import Iperf3NotInstalled, iperf3_install_plan
from sbctune.measure.latency.during import LatencyMonitor
from sbctune.measure.outcome import MeasureRun, split_udp
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.pi_client import IperfMissing, iperf3_version
from sbctune.measure.plan_test import PlanTest
from sbctune.measure.plans import Plan, TestSpec
from sbctune.measure.route import TestPath, find_path, local_address_towards
from sbctune.measure.run_events import (
    Event,
    LiveInterval,
    PiLoad,
    RunStarted,
    TestFinished,
    TestStarted,
)
from sbctune.measure.sampler import PiSampler
from sbctune.measure.steady import TrialsAdded, extra_round
from sbctune.measure.trials import fold_all
from sbctune.remote import Disconnected

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

# Where the pieces of a run live; their names are kept here, where callers import them from.
__all__ = [
    "CANCELLED",
    "Event",
    "LiveInterval",
    "PiLoad",
    "PlanTest",
    "RunStarted",
    "TestAlreadyRunning",
    "TestFinished",
    "TestPath",
    "TestStarted",
    "TrialsAdded",
    "find_path",
    "finish_run",
    "host_key",
    "local_address_towards",
    "measure",
    "measuring",
    "new_run",
    "refuse_if_busy",
    "stop_reason",
]

#: `MeasureRun.error` of a run the user cancelled.
CANCELLED = "cancelled by the user"


async def measure(
    session: Session,
    plan: Plan,
    *,
    nic: str | None = None,
    endpoint: EndpointKind = "builtin",
    iperf3_path: str | None = None,
    on_event: Callable[[Event], None] | None = None,
    allow_wrong_route: bool = False,
    nic_irqs: tuple[int, ...] = (),
    sample: bool = True,
    pc_port: int = 0,
    latency: bool = True,
    watch: tuple[str, ...] = (),
) -> MeasureRun:
    """Run every test of the plan; with `sample`, the Pi's per-core load is recorded too.

    `pc_port`: the first port this PC's endpoints listen on (a full-duplex test also uses the
    next one); 0 picks free ports. A lost link ends the run early with what was measured,
    marked incomplete. On cancel, the `RunStarted` event's run holds the tests so far (the one
    that was running marked incomplete) before the cancel propagates. `watch`: sampled files
    (sbctune.workflow.tuning_read), kept per test in run.tuning_watch."""
    version, path = await _ready_to_measure(session, nic, allow_wrong_route)
    run = new_run(session, plan, nic or path.nic, endpoint, path, version)
    emit = on_event or (lambda event: None)
    probes = LatencyMonitor(session, path.pc_address, path.pi_address, emit, enabled=latency)
    run.latency = probes.record  # idle and loaded round trips per test (sbctune.measure.latency)
    emit(RunStarted(run, path.note))
    with measuring(session):  # refuse_if_busy refuses a second run of this Pi meanwhile
        ctx = _Running(session, path, endpoint, iperf3_path, version, emit, pc_port, probes, run)
        try:
            if sample and run.nic:
                ctx.sampler = PiSampler(
                    session, run.nic, irqs=nic_irqs, interval=0.5, watch=watch,
                    on_sample=lambda s: emit(PiLoad(s)),
                )  # fmt: skip
                await ctx.sampler.start()
            await _run_schedule(ctx, plan)
        finally:
            if ctx.sampler is not None:
                await asyncio.shield(ctx.sampler.stop())
    finish_run(run)
    return run


async def _ready_to_measure(
    session: Session, nic: str | None, allow_wrong_route: bool
) -> tuple[tuple[int, int, int], TestPath]:
    """The Pi's iperf3 version and the path to test over, once the Pi has iperf3, the route
    goes through `nic` (or the user allows another) and no other run is measuring this Pi."""
    try:
        version = await iperf3_version(session)
    except IperfMissing:
        raise Iperf3NotInstalled(await iperf3_install_plan(session)) from None
    path = await find_path(session, nic)
    if path.warning and not allow_wrong_route:
        raise UserError(path.warning, "Or run anyway with --allow-other-route.")
    await refuse_if_busy(session)
    return version, path


@dataclass
class _Running:
    """What every test of one run shares."""

    session: Session
    path: TestPath
    endpoint: EndpointKind
    iperf3_path: str | None
    version: tuple[int, int, int]
    emit: Callable[[Event], None]
    pc_port: int
    probes: LatencyMonitor
    run: MeasureRun
    sampler: PiSampler | None = None


async def _run_schedule(ctx: _Running, plan: Plan) -> None:
    """Each test of the plan in turn, with the extra trials the TCP ones call for, until the
    link is gone."""
    schedule, index = list(plan.tests), 0
    while index < len(schedule):
        if not await _run_test(ctx, index, schedule[index]):
            break
        index += 1
        if index == len(schedule) or schedule[index].protocol != "tcp":
            extra = extra_round(plan, schedule[:index], ctx.run.tests)
            schedule[index:index] = [e.spec for e in extra]
            if extra:
                ctx.emit(TrialsAdded(index, tuple(extra)))


async def _run_test(ctx: _Running, index: int, spec: TestSpec) -> bool:
    """Run one test into the run record; False where the link is gone (the run ends there).
    A cancel keeps what the test measured, marked incomplete, and propagates."""
    ctx.emit(TestStarted(index, spec))
    began = time.monotonic()
    test = PlanTest(
        ctx.session, spec, index, ctx.path, ctx.endpoint, ctx.iperf3_path, ctx.version,
        ctx.emit, ctx.pc_port,
    )  # fmt: skip
    run = ctx.run
    try:
        async with ctx.probes.around(index, spec):
            outcomes = await test.run(run)
    except asyncio.CancelledError as stop:
        why = stop_reason(stop)
        run.tests.extend(test.partial(why))
        run.error = why
        finish_run(run)
        raise
    except Disconnected as lost:  # the SSH connection died: keep what was measured
        ctx.probes.forget_last_trial()
        kept = test.partial(lost.message)
        run.tests.extend(kept)
        run.error = f"{lost.message} {lost.hint}"
        ctx.emit(TestFinished(index, spec, tuple(kept)))
        return False
    if ctx.sampler is not None:
        window = ctx.sampler.summary(began + spec.omit, time.monotonic())
        run.pi_cpu[str(index)] = window.to_json()
        ctx.sampler.note_watched(run.tuning_watch, index)
    run.tests.extend(outcomes)
    ctx.emit(TestFinished(index, spec, tuple(outcomes)))
    if test.stopped:
        run.error = test.stopped
        ctx.probes.forget_last_trial()
        return False  # the link is gone: the next tests would only wait for it
    return True


def stop_reason(stop: asyncio.CancelledError) -> str:
    """Why a run was cancelled: the cancel's message when one was given (SIGTERM, SIGHUP:
    see sbctune.cli.stop_signals), else Ctrl-C or the app's Cancel: the user."""
    given = stop.args[0] if stop.args else None
    return given if isinstance(given, str) and given else CANCELLED


def new_run(
    session: Session,
    plan: Plan,
    nic: str | None,
    endpoint: EndpointKind,
    path: TestPath,
    version: tuple[int, int, int],
    started: str | None = None,
) -> MeasureRun:
    """The run record a measurement fills in (started now unless given)."""
    return MeasureRun(
        host=session.target.display,
        nic=nic,
        plan=plan.name,
        endpoint=endpoint,
        pc_address=path.pc_address,
        pi_address=path.pi_address,
        started=started or dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        iperf3_pi=".".join(map(str, version)),
        route_warning=path.warning,
    )


def finish_run(run: MeasureRun) -> None:
    run.udp, run.tests = split_udp(run.tests)
    run.tests = fold_all(run.tests)  # a plan's trials: one figure per direction and mode
    run.finished = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    run.complete = run.error is None and all(t.complete for t in run.tests)
