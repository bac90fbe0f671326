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
import json
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from sbctune.errors import UserError
from sbctune.measure.iperf_output import Direction, Record
from sbctune.measure.outcome import DirectionOutcome, Interval, MeasureRun, summarize, to_intervals
from sbctune.measure.pc_endpoint import EndpointKind, PcEndpoint, make_endpoint
from sbctune.measure.pi_client import ClientOptions, ClientResult, iperf3_version, run_client
from sbctune.measure.plans import Plan, TestSpec
from sbctune.measure.sampler import PiSample, PiSampler
from sbctune.remote import Session, batch

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


Event = LiveInterval | TestStarted | TestFinished | PiLoad


@dataclass(frozen=True)
class TestPath:
    pc_address: str
    pi_address: str | None
    route_dev: str | None
    warning: str | None


def _local_address_towards(addr: str) -> str | None:
    """This PC's address that the OS would use to reach `addr` (a UDP connect sends nothing)."""
    family = socket.AF_INET6 if ":" in addr else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((addr, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


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
    route_dev = None
    try:
        route = json.loads(results[0].text or "[]")
        route_dev = route[0].get("dev") if route else None
        default_src = route[0].get("prefsrc") if route else None
    except (ValueError, AttributeError, IndexError):
        default_src = None
    pi_addr = default_src
    if nic:
        try:
            addrs = json.loads(results[1].text or "[]")
            inet = [
                (a["local"], int(a.get("prefixlen", 32)))
                for i in addrs
                for a in i.get("addr_info", [])
                if a.get("family") == "inet"
            ]
        except (ValueError, KeyError, TypeError):
            inet = []
        if not inet:
            raise UserError(
                f"{nic} on the Pi has no IPv4 address.",
                "Bring the interface up and give it an address on this PC's network.",
            )
        pi_addr, prefix = inet[0]
        # This PC may also sit on the NIC's own network (SSH over one NIC, tests over another).
        subnet = ipaddress.ip_network(f"{pi_addr}/{prefix}", strict=False)
        nearer = _local_address_towards(pi_addr)
        if nearer and nearer != pc and ipaddress.ip_address(nearer) in subnet:
            pc = nearer
        if route_dev != nic or pc != session.local_address:
            check = await session.run_script(
                [batch.command("ip", "-j", "route", "get", pc, "from", pi_addr)]
            )
            with contextlib.suppress(ValueError, IndexError, AttributeError):
                route_dev = json.loads(check[0].text or "[]")[0].get("dev", route_dev)
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
    cap = None
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
) -> MeasureRun:
    """Run every test of the plan; with `sample`, the Pi's per-core load is recorded too."""
    version = await iperf3_version(session)
    path = await find_path(session, nic)
    if path.warning and not allow_wrong_route:
        raise UserError(path.warning, "Or run anyway with --allow-other-route.")
    run = MeasureRun(
        host=session.target.display,
        nic=nic or path.route_dev,
        plan=plan.name,
        endpoint=endpoint,
        pc_address=path.pc_address,
        pi_address=path.pi_address,
        started=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        iperf3_pi=".".join(map(str, version)),
        route_warning=path.warning,
    )
    emit = on_event or (lambda event: None)
    sampler = None
    if sample and run.nic:
        sampler = PiSampler(
            session, run.nic, irqs=nic_irqs, interval=0.5, on_sample=lambda s: emit(PiLoad(s))
        )
        await sampler.start()
    try:
        for index, spec in enumerate(plan.tests):
            emit(TestStarted(index, spec))
            began = time.monotonic()
            outcomes = await _run_test(
                session, spec, index, path, endpoint, iperf3_path, version, emit, run
            )
            if sampler is not None:
                window = sampler.summary(began + spec.omit, time.monotonic())
                run.pi_cpu[str(index)] = window.to_json()
            for outcome in outcomes:
                outcome.test_index = index
            run.tests.extend(outcomes)
            emit(TestFinished(index, spec, tuple(outcomes)))
    finally:
        if sampler is not None:
            await asyncio.shield(sampler.stop())
    run.finished = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    run.complete = all(t.complete for t in run.tests)
    return run


async def _run_test(
    session: Session,
    spec: TestSpec,
    index: int,
    path: TestPath,
    kind: EndpointKind,
    iperf3_path: str | None,
    version: tuple[int, int, int],
    emit: Callable[[Event], None],
    run: MeasureRun,
) -> list[DirectionOutcome]:
    endpoints = [make_endpoint(kind, path.pc_address, iperf3_path) for _ in spec.directions]
    try:
        for endpoint in endpoints:
            await endpoint.start()
        run.iperf3_pc = endpoints[0].version

        def live(direction: Direction) -> Callable[[Record], None]:
            def take(record: Record) -> None:
                (interval,) = to_intervals([record], spec.omit)
                emit(LiveInterval(index, spec, direction, interval))

            return take

        results: list[ClientResult | BaseException] = await asyncio.gather(
            *(
                run_client(
                    session, _client_options(spec, d, path, e), version=version, on_interval=live(d)
                )
                for d, e in zip(spec.directions, endpoints, strict=True)
            ),
            return_exceptions=True,
        )
    finally:
        await asyncio.gather(*(e.stop() for e in endpoints), return_exceptions=True)
    outcomes = []
    for direction, result in zip(spec.directions, results, strict=True):
        if isinstance(result, asyncio.CancelledError):
            raise result
        if isinstance(result, BaseException):
            if isinstance(result, UserError) and len(spec.directions) == 1:
                raise result
            outcomes.append(
                summarize(direction, spec.mode, [], [], complete=False, error=str(result))
            )
            continue
        intervals = to_intervals(
            [r for r in result.intervals if r.direction == direction], spec.omit
        )
        outcomes.append(
            summarize(
                direction,
                spec.mode,
                intervals,
                result.summaries,
                complete=result.complete,
                error=result.error,
            )
        )
    return outcomes
