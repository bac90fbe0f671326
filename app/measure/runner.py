"""Run a test plan between the Pi and this PC, live, and return the figures.

The Pi runs the real iperf3 client bound to the NIC under test; this PC serves each direction
on its own endpoint and port (full duplex is two clients at once, one of them reversed, as the
seed authors ran it). Cancelling the task stops everything on both sides.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import ipaddress
import re
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sbctune.errors import UserError
from sbctune.limits import parse_json
from sbctune.measure.endpoint import PortInUseError
from sbctune.measure.install import Iperf3NotInstalled, iperf3_install_plan
from sbctune.measure.iperf_output import Direction, Record
from sbctune.measure.latency.during import LatencyMonitor, LiveLatency
from sbctune.measure.outcome import (
    DirectionOutcome,
    Interval,
    MeasureRun,
    split_udp,
    summarize,
    to_intervals,
)
from sbctune.measure.pc_endpoint import EndpointKind, PcEndpoint, make_endpoint
from sbctune.measure.pi_client import (
    ClientOptions,
    ClientResult,
    IperfMissing,
    iperf3_version,
    run_client,
)
from sbctune.measure.plans import Plan, TestSpec
from sbctune.measure.sampler import PiSample, PiSampler
from sbctune.measure.steady import TrialsAdded, extra_round
from sbctune.measure.trials import fold_all
from sbctune.remote import Disconnected, Session, batch

#: `MeasureRun.error` of a run the user cancelled.
CANCELLED = "cancelled by the user"

_IFACE = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")


@dataclass(frozen=True)
class LiveInterval:
    """One second of one direction, as the Pi's client printed it."""

    test_index: int
    spec: TestSpec
    direction: Direction
    interval: Interval


@dataclass(frozen=True)
class TestStarted:
    test_index: int
    spec: TestSpec


@dataclass(frozen=True)
class TestFinished:
    test_index: int
    spec: TestSpec
    outcomes: tuple[DirectionOutcome, ...]


@dataclass(frozen=True)
class PiLoad:
    """One sample of the Pi's per-core load and NIC counters (at least once a second)."""

    sample: PiSample


@dataclass(frozen=True)
class RunStarted:
    """The run's record, filled in as tests finish; kept by callers that want partial results
    when the run is cancelled."""

    run: MeasureRun


Event = LiveInterval | TestStarted | TestFinished | PiLoad | RunStarted | LiveLatency | TrialsAdded


@dataclass(frozen=True)
class TestPath:
    pc_address: str
    pi_address: str | None
    route_dev: str | None
    warning: str | None


def local_address_towards(addr: str) -> str | None:
    """This PC's address that the OS would use to reach `addr` (a UDP connect sends nothing)."""
    family = socket.AF_INET6 if ":" in addr else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((addr, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _route(text: str) -> tuple[str | None, str | None]:
    """(device, source address) of `ip -j route get`'s answer; None where it does not say."""
    try:
        route = parse_json(text or "[]")
        if not route:
            return None, None
        return route[0].get("dev"), route[0].get("prefsrc")
    except (ValueError, AttributeError, IndexError):
        return None, None


def _nic_ipv4(nic: str, result: batch.StepResult) -> tuple[str, int]:
    """The first IPv4 address and prefix of `ip -j -4 addr show dev NIC`, or a clear error."""
    try:
        addrs = parse_json(result.text or "[]")
        inet = [
            (a["local"], int(a.get("prefixlen", 32)))
            for i in addrs
            for a in i.get("addr_info", [])
            if a.get("family") == "inet"
        ]
    except (ValueError, KeyError, TypeError):
        inet = []
    if not inet and "does not exist" in result.error_text:
        raise UserError(
            f"The Pi has no network interface {nic}.",
            "`sbctune inspect HOST` lists the Pi's NICs; give one of them with --nic.",
        )
    if not inet:
        raise UserError(
            f"{nic} on the Pi has no IPv4 address.",
            "Bring the interface up and give it an address on this PC's network.",
        )
    return inet[0]


async def _path_through(
    session: Session, nic: str, addr: batch.StepResult, route_dev: str | None, pc: str
) -> tuple[str, str, str | None]:
    """(PC address, Pi address, device the Pi routes through) for tests over ``nic``."""
    pi_addr, prefix = _nic_ipv4(nic, addr)
    # This PC may also sit on the NIC's own network (SSH over one NIC, tests over another).
    subnet = ipaddress.ip_network(f"{pi_addr}/{prefix}", strict=False)
    nearer = local_address_towards(pi_addr)
    if nearer and nearer != pc and ipaddress.ip_address(nearer) in subnet:
        pc = nearer
    if route_dev != nic or pc != session.local_address:
        check = await session.run_script(
            [batch.command("ip", "-j", "route", "get", pc, "from", pi_addr)]
        )
        with contextlib.suppress(ValueError, IndexError, AttributeError):
            route_dev = parse_json(check[0].text or "[]")[0].get("dev", route_dev)
    return pc, pi_addr, route_dev


async def find_path(session: Session, nic: str | None) -> TestPath:
    """Which addresses to use, and whether traffic to this PC leaves through the NIC under test."""
    pc = session.local_address
    if not pc:
        raise UserError(
            "Could not tell this computer's address as the Pi sees it.",
            "Connect to the Pi by its IP address and try again.",
        )
    if nic is not None and not _IFACE.match(nic):
        raise UserError(f"'{nic}' is not a network interface name.", "Example: --nic eth0")
    steps = [batch.command("ip", "-j", "route", "get", pc)]
    if nic:
        steps.append(batch.command("ip", "-j", "-4", "addr", "show", "dev", nic))
    results = await session.run_script(steps)
    route_dev, pi_addr = _route(results[0].text)
    if nic:
        pc, pi_addr, route_dev = await _path_through(session, nic, results[1], route_dev, pc)
    warning = None
    if nic and route_dev and route_dev != nic:
        warning = (
            f"Traffic to this PC ({pc}) leaves the Pi through {route_dev}, not {nic}: the "
            f"results would measure {route_dev}. Put this PC on {nic}'s network, or "
            "choose that NIC."
        )
    return TestPath(pc, pi_addr, route_dev, warning)


def _client_options(
    spec: TestSpec, direction: Direction, path: TestPath, endpoint: PcEndpoint
) -> ClientOptions:
    reverse = direction == "pc_to_pi"
    cap = spec.udp_mbps / spec.streams if spec.udp_mbps else None  # UDP: paced both ways
    if reverse and spec.pc_cap_mbps:
        cap = spec.pc_cap_mbps / spec.streams  # iperf3's -b is per stream
    return ClientOptions(
        server=path.pc_address,
        port=endpoint.port,
        duration=spec.duration,
        omit=spec.omit,
        streams=spec.streams,
        reverse=reverse,
        bitrate_mbps=cap,
        bind=path.pi_address,
        udp=spec.udp_mbps is not None,
    )


# iperf3 clients on the Pi in the same network namespace as the login shell: pid, then args.
# Reading other users' /proc/PID/ns/net is not allowed; those are not ours to worry about.
_RUNNING_CLIENTS = (
    "me=$(readlink /proc/self/ns/net); for c in $(grep -lx iperf3 /proc/[0-9]*/comm "
    '2>/dev/null); do p=${c%/comm}; [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$me" ] || '
    "continue; printf '%s ' \"${p#/proc/}\"; tr '\\0' ' ' <\"$p/cmdline\" 2>/dev/null; echo; done"
)

# Hosts this process is measuring right now (a second run at once would share the link).
_active: set[str] = set()


def host_key(session: Session) -> str:
    return f"{session.remote_address}:{session.target.port}"


@contextlib.contextmanager
def measuring(session: Session) -> Iterator[None]:
    """Mark the Pi as being measured from this process (refuse_if_busy checks it)."""
    key = host_key(session)
    _active.add(key)
    try:
        yield
    finally:
        _active.discard(key)


class TestAlreadyRunning(UserError):
    """Another iperf3 test runs on the Pi (or from this app) right now."""

    __test__ = False  # not a pytest test class


async def refuse_if_busy(session: Session) -> None:
    if host_key(session) in _active:
        raise TestAlreadyRunning(
            f"A measurement of {session.target.display} is already running from this computer.",
            "Wait for it to finish (or cancel it), then start the next one.",
        )
    result = await session.run(["sh", "-c", _RUNNING_CLIENTS], timeout=20)
    for line in result.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        words = args.split()
        if pid.isdigit() and ("-c" in words or "--client" in words):
            raise TestAlreadyRunning(
                f"Another iperf3 test is running on the Pi (pid {pid}: {args.strip()[:120]}). "
                "Two tests at once share the link, and both would measure wrong figures.",
                f"Wait for it to finish, or stop it (`kill {pid}` on the Pi), then try again.",
            )


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
    try:
        version = await iperf3_version(session)
    except IperfMissing:
        raise Iperf3NotInstalled(await iperf3_install_plan(session)) from None
    path = await find_path(session, nic)
    if path.warning and not allow_wrong_route:
        raise UserError(path.warning, "Or run anyway with --allow-other-route.")
    await refuse_if_busy(session)
    key = host_key(session)
    run = new_run(session, plan, nic or path.route_dev, endpoint, path, version)
    emit = on_event or (lambda event: None)
    probes = LatencyMonitor(session, path.pc_address, path.pi_address, emit, enabled=latency)
    run.latency = probes.record  # idle and loaded round trips per test (sbctune.measure.latency)
    emit(RunStarted(run))
    _active.add(key)
    sampler = None
    try:
        if sample and run.nic:
            sampler = PiSampler(session, run.nic, irqs=nic_irqs, interval=0.5, watch=watch,
                                on_sample=lambda s: emit(PiLoad(s)))  # fmt: skip
            await sampler.start()
        schedule, index = list(plan.tests), 0
        while index < len(schedule):
            spec = schedule[index]
            emit(TestStarted(index, spec))
            began = time.monotonic()
            test = PlanTest(
                session, spec, index, path, endpoint, iperf3_path, version, emit, pc_port
            )
            try:
                async with probes.around(index, spec):
                    outcomes = await test.run(run)
            except asyncio.CancelledError as stop:
                why = stop_reason(stop)
                run.tests.extend(test.partial(why))
                run.error = why
                finish_run(run)
                raise
            except Disconnected as lost:  # the SSH connection died: keep what was measured
                kept = test.partial(lost.message)
                run.tests.extend(kept)
                run.error = f"{lost.message} {lost.hint}"
                emit(TestFinished(index, spec, tuple(kept)))
                break
            if sampler is not None:
                window = sampler.summary(began + spec.omit, time.monotonic())
                run.pi_cpu[str(index)] = window.to_json()
                sampler.note_watched(run.tuning_watch, index)
            run.tests.extend(outcomes)
            emit(TestFinished(index, spec, tuple(outcomes)))
            if test.stopped:
                run.error = test.stopped
                break  # the link is gone: the next tests would only wait for it
            index += 1
            if index == len(schedule) or schedule[index].protocol != "tcp":
                extra = extra_round(plan, schedule[:index], run.tests)
                schedule[index:index] = [e.spec for e in extra]
                if extra:
                    emit(TrialsAdded(index, tuple(extra)))
    finally:
        _active.discard(key)
        if sampler is not None:
            await asyncio.shield(sampler.stop())
    finish_run(run)
    return run


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


class PlanTest:
    """One test of the plan: endpoints on this PC, one client per direction on the Pi."""

    def __init__(
        self,
        session: Session,
        spec: TestSpec,
        index: int,
        path: TestPath,
        kind: EndpointKind,
        iperf3_path: str | None,
        version: tuple[int, int, int],
        emit: Callable[[Event], None],
        pc_port: int,
    ) -> None:
        self.session = session
        self.spec = spec
        self.index = index
        self.path = path
        self.kind = kind
        self.iperf3_path = iperf3_path
        self.version = version
        self.emit = emit
        self.pc_port = pc_port
        self.live: dict[Direction, list[Record]] = {d: [] for d in spec.directions}
        self.stopped: str | None = None  # why the run cannot go on (the link was lost)

    def _outcome(
        self,
        direction: Direction,
        intervals: list[Interval],
        *,
        complete: bool,
        error: str | None,
        summaries: list[Record] | None = None,
    ) -> DirectionOutcome:
        outcome = summarize(
            direction, self.spec.mode, intervals, summaries or [], complete=complete, error=error
        )
        outcome.test_index = self.index
        outcome.protocol, outcome.udp_target_mbps = self.spec.protocol, self.spec.udp_mbps
        return outcome

    def partial(self, error: str) -> list[DirectionOutcome]:
        """What arrived live so far, marked incomplete (used when the test is cancelled)."""
        return [
            self._outcome(d, to_intervals(records, self.spec.omit), complete=False, error=error)
            for d, records in self.live.items()
        ]

    def _live(self, direction: Direction) -> Callable[[Record], None]:
        def take(record: Record) -> None:
            self.live[direction].append(record)
            (interval,) = to_intervals([record], self.spec.omit)
            self.emit(LiveInterval(self.index, self.spec, direction, interval))

        return take

    async def run(self, run: MeasureRun) -> list[DirectionOutcome]:
        spec, path = self.spec, self.path
        ports = [self.pc_port + i if self.pc_port else 0 for i in range(len(spec.directions))]
        endpoints = [make_endpoint(self.kind, path.pc_address, self.iperf3_path, p) for p in ports]
        try:
            for endpoint in endpoints:
                try:
                    await endpoint.start()
                except PortInUseError as busy:
                    raise UserError(
                        f"Port {busy.port} on this computer ({busy.host}) is already in use, so "
                        "the test endpoint cannot listen there.",
                        "Stop the program that uses it, or choose another port with --pc-port N "
                        "(or leave --pc-port out to use any free port).",
                    ) from None
            run.iperf3_pc = endpoints[0].version
            results: list[ClientResult | BaseException] = await asyncio.gather(
                *(
                    run_client(
                        self.session,
                        _client_options(spec, d, path, e),
                        version=self.version,
                        on_interval=self._live(d),
                    )
                    for d, e in zip(spec.directions, endpoints, strict=True)
                ),
                return_exceptions=True,
            )
        finally:
            await asyncio.shield(
                asyncio.gather(*(e.stop() for e in endpoints), return_exceptions=True)
            )
        outcomes = []
        for direction, result in zip(spec.directions, results, strict=True):
            if isinstance(result, asyncio.CancelledError):
                raise result
            if isinstance(result, BaseException):
                if isinstance(result, UserError) and len(spec.directions) == 1:
                    raise result
                outcomes.append(self._outcome(direction, [], complete=False, error=str(result)))
                continue
            if result.link_lost and self.stopped is None:
                self.stopped = result.error
            intervals = to_intervals(
                [r for r in result.intervals if r.direction == direction], spec.omit
            )
            outcomes.append(
                self._outcome(
                    direction,
                    intervals,
                    summaries=result.summaries,
                    complete=result.complete,
                    error=result.error,
                )
            )
        return outcomes
