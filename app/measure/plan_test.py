"""One test of a plan: an endpoint on this PC and an iperf3 client on the Pi per direction,
run at once (full duplex is two clients, one of them reversed), with live intervals."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.measure.endpoint import PortInUseError
from sbctune.measure.iperf_output import Direction, Record
from sbctune.measure.outcome import DirectionOutcome, Interval, MeasureRun, summarize, to_intervals
from sbctune.measure.pc_endpoint import EndpointKind, PcEndpoint, make_endpoint
from sbctune.measure.pi_client import ClientOptions, ClientResult, run_client
from sbctune.measure.plans import TestSpec
from sbctune.measure.route import TestPath
from sbctune.measure.run_events import Event, LiveInterval

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


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
        clock: Callable[[], float] = time.monotonic,
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
        self.clock = clock
        # Per direction, this PC's clock at the test's t = 0: each interval line's arrival
        # less its t, the smallest kept (a delay only makes a line later; iperf3's own
        # timestamps are whole seconds). NICs measured at once are lined up by it. The
        # latest line waits in `_newest` until another follows: a test's final interval line
        # comes with its end, not its t (iperf3 3.12 on the lab, -t 3 -O 1: the lines for t =
        # 3 and 4 reached this PC together, 1.0 s before t = 4; counted, it moved t = 0 a
        # second early and the live total dropped a second).
        self.clock_zero: dict[Direction, float] = {}
        self._newest: dict[Direction, float] = {}

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
        outcome.clock_zero = self.clock_zero.get(direction, self._newest.get(direction))
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
            before = self._newest.get(direction)
            if before is not None:  # the line before this one was not the test's last
                known = self.clock_zero.get(direction, before)
                self.clock_zero[direction] = min(known, before)
            self._newest[direction] = self.clock() - interval.t
            zero = self.clock_zero.get(direction, self._newest[direction])
            self.emit(LiveInterval(self.index, self.spec, direction, interval, zero))

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
