"""Several NICs measured at once (seed 004): the same test on every NIC, side by side.

Each NIC gets its own endpoint on this PC, on the PC's address in that NIC's network, and its
own iperf3 clients on the Pi bound to the NIC's address; the route from each NIC's address to
its endpoint is checked like a single-NIC run's. The result is one `MeasureRun` per NIC (stored
as one history run each, sharing an aggregate id) and the sum per direction and mode.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sbctune.errors import UserError
from sbctune.measure.install import Iperf3NotInstalled, iperf3_install_plan
from sbctune.measure.iperf_output import Direction
from sbctune.measure.outcome import DirectionOutcome, MeasureRun
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.pi_client import IperfMissing, iperf3_version
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL, MODE_WORDS, Mode, Plan
from sbctune.measure.reachable import Reachable, reachable
from sbctune.measure.runner import (
    Event,
    PiLoad,
    PlanTest,
    TestFinished,
    TestPath,
    TestStarted,
    find_path,
    finish_run,
    local_address_towards,
    measuring,
    new_run,
    refuse_if_busy,
    stop_reason,
)
from sbctune.measure.sampler import PiSampler
from sbctune.measure.together import Timed, Window, fold, window

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

# OpenSSH's sshd allows 10 channels per connection by default (sshd_config(5), MaxSessions);
# every iperf3 client and the sampler is one, and one stays free to stop them on cancel.
MAX_CHANNELS = 10
SPARE_CHANNELS = 1


@dataclass(frozen=True)
class NicEvent:
    """A single-NIC event (live interval, test started/finished) of one NIC of the aggregate."""

    nic: str
    event: Event


@dataclass(frozen=True)
class AggregateStarted:
    """The aggregate's record, filled in as tests finish (kept by callers for partial results)."""

    run: AggregateRun


AggregateEvent = NicEvent | AggregateStarted | PiLoad


@dataclass(frozen=True)
class AggregateFigure:
    """One direction of one test over all NICs: each NIC's own mean and, over the time every
    NIC ran, what they carried together and its sum."""

    test_index: int
    direction: Direction
    mode: Mode
    per_nic: dict[str, float | None]  # each NIC's own mean, over its own seconds
    complete: bool
    # The figures over the time every NIC ran (sbctune.measure.together); None for a record
    # made before they were kept, whose total is each NIC's own mean added up, as then.
    together: Window | None = None

    @property
    def total_mbps(self) -> float | None:
        """What passed together; None when a NIC has no figure or the NICs never ran
        together (a total without it would mislead)."""
        if self.together is not None:
            return self.together.total_mbps
        values = list(self.per_nic.values())
        if not values or any(v is None for v in values):
            return None
        return sum(v for v in values if v is not None)

    @property
    def label(self) -> str:
        words = "" if self.mode == "half" else f" ({MODE_WORDS[self.mode]})"
        return f"{DIRECTION_LABEL[self.direction]}{words}"

    @property
    def note(self) -> str | None:
        """Under the Total row: how long the NICs ran together when it was not the whole test,
        or why there is no total."""
        return self.together.note(self.label) if self.together is not None else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "test_index": self.test_index,
            "direction": self.direction,
            "mode": self.mode,
            "total_mbps": self.total_mbps,
            "per_nic": dict(self.per_nic),
            "complete": self.complete,
        }
        if self.together is not None:
            data |= self.together.to_json()
            data["note"] = self.note
        return data


@dataclass
class AggregateRun:
    id: str
    host: str
    plan: str
    nics: list[str]
    runs: list[MeasureRun]
    started: str
    finished: str | None = None
    complete: bool = False
    error: str | None = None
    # Per direction and mode, each trial's figures over the time all NICs ran (in run order).
    windows: dict[tuple[Direction, Mode], list[Window]] = field(default_factory=dict)

    def run_for(self, nic: str) -> MeasureRun:
        return self.runs[self.nics.index(nic)]

    def add_trial(self, outcomes: Mapping[str, Sequence[DirectionOutcome]]) -> None:
        """One trial's outcomes per NIC (before the trials are folded): its together window
        per direction, kept for the figures."""
        keys = dict.fromkeys((o.direction, o.mode) for each in outcomes.values() for o in each)
        for direction, mode in keys:
            trial: dict[str, Timed] = {}
            for nic in self.nics:
                each = outcomes.get(nic, ())
                found = next((o for o in each if (o.direction, o.mode) == (direction, mode)), None)
                trial[nic] = Timed(found.clock_zero, found.intervals) if found else Timed(None, [])
            self.windows.setdefault((direction, mode), []).append(window(trial))

    def figures(self) -> list[AggregateFigure]:
        """Per test and direction, in the plan's order."""
        keys: list[tuple[int, Direction, Mode]] = []
        for run in self.runs:
            for t in run.tests:
                if (t.test_index, t.direction, t.mode) not in keys:
                    keys.append((t.test_index, t.direction, t.mode))
        out = []
        for index, direction, mode in sorted(keys, key=lambda k: k[0]):
            outcomes = {
                nic: _outcome(run, index, direction)
                for nic, run in zip(self.nics, self.runs, strict=True)
            }
            out.append(
                AggregateFigure(
                    index,
                    direction,
                    mode,
                    {nic: o.mean_mbps if o else None for nic, o in outcomes.items()},
                    all(o is not None and o.complete for o in outcomes.values()),
                    fold(self.windows.get((direction, mode), [])),
                )
            )
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "aggregate_id": self.id,
            "host": self.host,
            "plan": self.plan,
            "nics": list(self.nics),
            "started": self.started,
            "finished": self.finished,
            "complete": self.complete,
            "error": self.error,
            "run_ids": [r.run_id for r in self.runs],
            "aggregate": [f.to_json() for f in self.figures()],
            "runs": [r.to_json() for r in self.runs],
        }


def _outcome(run: MeasureRun, index: int, direction: Direction) -> DirectionOutcome | None:
    return next((t for t in run.tests if t.test_index == index and t.direction == direction), None)


def _check_nics(nics: Sequence[str], plan: Plan, sample: bool) -> None:
    if len(nics) < 2:
        raise UserError(
            "Measuring NICs together needs at least two NICs.",
            "Name two or more with --nic (e.g. --nic eth0 --nic eth1), or use --all-nics.",
        )
    doubled = sorted({n for n in nics if list(nics).count(n) > 1})
    if doubled:
        raise UserError(f"{', '.join(doubled)} is named twice.", "Name each NIC once.")
    clients = len(nics) * max(len(t.directions) for t in plan.tests) + (1 if sample else 0)
    if clients > MAX_CHANNELS - SPARE_CHANNELS:
        raise UserError(
            f"{len(nics)} NICs at once with this plan need {clients} SSH channels on the Pi; "
            f"its SSH server allows {MAX_CHANNELS} per connection by default (MaxSessions).",
            "Measure fewer NICs at once, or use a plan without full-duplex tests (--plan quick).",
        )


def _route_problems(nics: Sequence[str], paths: Sequence[TestPath]) -> str | None:
    problems = [p.warning for p in paths if p.warning]
    shared: dict[str, list[str]] = {}
    for nic, path in zip(nics, paths, strict=True):
        shared.setdefault(path.pc_address, []).append(nic)
    for address, names in shared.items():
        if len(names) > 1:
            problems.append(
                f"{' and '.join(names)} would all reach this PC at {address}: one endpoint "
                "address for several NICs means their traffic shares one path here."
            )
    return " ".join(problems) if problems else None


async def _prepare(
    session: Session, nics: list[str], allow_wrong_route: bool
) -> tuple[tuple[int, int, int], list[TestPath]]:
    """iperf3's version on the Pi, each NIC's route to this PC (a wrong one refused unless
    allowed), and no other test running."""
    try:
        version = await iperf3_version(session)
    except IperfMissing:
        raise Iperf3NotInstalled(await iperf3_install_plan(session)) from None
    paths = [await find_path(session, nic) for nic in nics]
    problem = _route_problems(nics, paths)
    if problem and not allow_wrong_route:
        raise UserError(problem, "Or run anyway with --allow-other-route.")
    await refuse_if_busy(session)
    return version, paths


async def measure_aggregate(
    session: Session,
    plan: Plan,
    nics: Sequence[str],
    *,
    endpoint: EndpointKind = "builtin",
    iperf3_path: str | None = None,
    on_event: Callable[[AggregateEvent], None] | None = None,
    allow_wrong_route: bool = False,
    nic_irqs: Mapping[str, tuple[int, ...]] | None = None,
    sample: bool = True,
    pc_port: int = 0,
) -> AggregateRun:
    """Run every test of the plan on all `nics` at once, each against its own endpoint.

    `pc_port`: NIC i's endpoints listen on pc_port + 2i (and + 2i + 1 for full duplex); 0
    picks free ports. With `sample`, the Pi's per-core load is recorded (in the first NIC's
    run: one sampler, the CPU is shared). On cancel, the `AggregateStarted` event's run holds
    the tests so far before the cancel propagates.
    """
    nics = list(nics)
    _check_nics(nics, plan, sample)
    version, paths = await _prepare(session, nics, allow_wrong_route)
    started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    runs = [
        new_run(session, plan, nic, endpoint, path, version, started)
        for nic, path in zip(nics, paths, strict=True)
    ]
    agg = AggregateRun(uuid.uuid4().hex, session.target.display, plan.name, nics, runs, started)
    emit = on_event or (lambda event: None)
    emit(AggregateStarted(agg))
    sampler = None
    with measuring(session):
        try:
            if sample:
                irqs = (nic_irqs or {}).get(nics[0], ())
                sampler = PiSampler(
                    session, nics[0], irqs=irqs, interval=0.5, on_sample=lambda s: emit(PiLoad(s))
                )
                await sampler.start()
            for index, spec in enumerate(plan.tests):
                began = time.monotonic()
                tests = [
                    PlanTest(session, spec, index, path, endpoint, iperf3_path, version,
                             _tagged(emit, nic), pc_port + 2 * i if pc_port else 0)
                    for i, (nic, path) in enumerate(zip(nics, paths, strict=True))
                ]  # fmt: skip
                for test in tests:
                    test.emit(TestStarted(index, spec))
                stopped = await _run_together(tests, agg)
                if sampler is not None:
                    window = sampler.summary(began + spec.omit, time.monotonic())
                    runs[0].pi_cpu[str(index)] = window.to_json()
                if stopped:
                    agg.error = stopped
                    break  # a link is gone: the next tests would only wait for it
        except asyncio.CancelledError as stop:
            agg.error = stop_reason(stop)
            for run in runs:
                run.error = agg.error
                finish_run(run)
            _finish(agg)
            raise
        finally:
            if sampler is not None:
                await asyncio.shield(sampler.stop())
    _finish(agg)
    return agg


def _tagged(emit: Callable[[AggregateEvent], None], nic: str) -> Callable[[Event], None]:
    return lambda event: emit(NicEvent(nic, event))


async def _run_together(tests: list[PlanTest], agg: AggregateRun) -> str | None:
    """One test of the plan on every NIC at once; returns why the run must stop, if it must.
    Its figures over the time every NIC ran go into `agg.windows` (before trials fold)."""
    runs = agg.runs
    try:
        results = await asyncio.gather(
            *(t.run(r) for t, r in zip(tests, runs, strict=True)), return_exceptions=True
        )
    except asyncio.CancelledError as stop:
        kept = {n: test.partial(stop_reason(stop)) for n, test in zip(agg.nics, tests, strict=True)}
        for run, nic in zip(runs, agg.nics, strict=True):
            run.tests.extend(kept[nic])
        agg.add_trial(kept)
        raise
    failed: UserError | None = None
    trial: dict[str, list[DirectionOutcome]] = {}
    for test, run, result in zip(tests, runs, results, strict=True):
        nic = run.nic or "?"
        if isinstance(result, asyncio.CancelledError):
            raise result
        if isinstance(result, UserError):
            failed = failed or UserError(f"{nic}: {result.message}", result.hint)
            trial[nic] = test.partial(result.message)
            run.tests.extend(trial[nic])
            continue
        if isinstance(result, BaseException):
            raise result
        trial[nic] = result
        run.tests.extend(result)
        test.emit(TestFinished(test.index, test.spec, tuple(result)))
        if test.stopped:
            run.error = test.stopped
    agg.add_trial(trial)
    if failed is not None:
        # A total without one NIC's share would not be the aggregate: stop with the reason.
        raise failed
    return next((f"{r.nic}: {r.error}" for r in runs if r.error), None)


def _finish(agg: AggregateRun) -> None:
    for run in agg.runs:
        if run.finished is None:
            finish_run(run)
    agg.finished = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    agg.complete = agg.error is None and all(r.complete for r in agg.runs)


def aggregate_text(agg: AggregateRun) -> str:
    """One row per NIC (its own mean) and a Total row (what passed while every NIC ran); one
    column per direction and mode of the plan; under it, a note per direction whose NICs did
    not all run the whole time (or that has no total), saying what the total counts."""
    figures = agg.figures()
    header = ["NIC", *(f"{DIRECTION_LABEL[f.direction]} {MODE_LABEL[f.mode]}" for f in figures)]

    def cell(value: float | None, complete: bool = True) -> str:
        if value is None:
            return "—"
        return f"{value:.0f} Mbit/s" + ("" if complete else " (incomplete)")

    rows = [[nic, *(cell(f.per_nic.get(nic)) for f in figures)] for nic in agg.nics]
    rows.append(["Total", *(cell(f.total_mbps, f.complete) for f in figures)])
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()

    lines = [fmt(header), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows[:-1])]
    notes = [f.note for f in figures if f.note]
    return "\n".join([*lines, fmt(["-" * w for w in widths]), fmt(rows[-1]), *notes])


async def reachable_nics(session: Session) -> Reachable:
    """The Pi's interfaces on whose network this PC has an address of its own (--all-nics):
    only those can each be measured against their own endpoint; one that is down or has no
    link is left out, with why (``reachable``)."""
    result = await session.run(["ip", "-j", "-4", "addr", "show"], timeout=20)
    return reachable(result.stdout or "[]", local_address_towards)
