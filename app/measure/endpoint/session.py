"""One client's test, from the cookie to ``IPERF_DONE`` (the server half of iperf3's protocol).

The order of messages (``iperf_server_api.c``)::

    client                         endpoint
    cookie              ------>
                        <------    PARAM_EXCHANGE
    parameters (JSON)   ------>
                        <------    CREATE_STREAMS   (or SERVER_ERROR + codes for UDP)
    N data connections, each opening with the cookie
                        <------    TEST_START, TEST_RUNNING
    ... data flows (the endpoint receives, sends (-R) or both (--bidir)) ...
    TEST_END            ------>
                        <------    EXCHANGE_RESULTS
    client results      ------>
                        <------    endpoint results
                        <------    DISPLAY_RESULTS
    IPERF_DONE          ------>

The client may send ``CLIENT_TERMINATE`` or just vanish at any point; the endpoint then
finishes with status ``aborted`` and is free for the next client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable

from sbctune import aio

from .accounting import cpu_percent
from .meter import Meter
from .protocol import (
    ControlChannel,
    ControlClosed,
    ProtocolError,
    Rejected,
    State,
    TestParams,
    encode_server_error,
    stream_ids,
)
from .results import (
    IntervalSample,
    LocalStream,
    PeerResults,
    Status,
    TestResult,
    TestStart,
    build_server_results,
    combine,
    format_summary,
    parse_peer_results,
    summarize,
)
from .streams import (
    DataMover,
    DataStream,
    Direction,
    configure_data_socket,
    congestion_used,
)
from .udp import UdpMover, accept_udp_streams, open_udp_socket
from .waits import Terminated, set_done, until, until_either

log = logging.getLogger(__name__)

#: Seconds the client may take for each setup step (parameters, stream connections, results).
SETUP_TIMEOUT = 10.0
#: Seconds past ``-t`` + ``-O`` after which a test that never ended is abandoned (C uses 5).
END_GRACE = 10.0
#: Seconds to wait for the client's IPERF_DONE after DISPLAY_RESULTS.
DONE_TIMEOUT = 5.0


class TestSession:
    """Runs one test for the client on ``ctrl_sock``; ``run()`` returns its ``TestResult``."""

    __test__ = False  # not a pytest test class

    def __init__(
        self,
        test_id: int,
        ctrl_sock: socket.socket,
        client: tuple[str, int],
        cookie: bytes,
        *,
        interval: float = 1.0,
        emit: Callable[[IntervalSample], None] | None = None,
        on_start: Callable[[TestStart], None] | None = None,
        setup_timeout: float = SETUP_TIMEOUT,
    ) -> None:
        self.test_id = test_id
        self.client = client
        self.cookie = cookie
        self.ctrl = ControlChannel(ctrl_sock)
        self.interval = interval if interval > 0 else 1.0
        self.setup_timeout = setup_timeout
        self.params: TestParams | None = None
        self.accepting_streams = False
        self._emit = emit
        self._on_start = on_start
        self._streams: list[DataStream] = []
        self._expected = 0
        self._streams_ready: asyncio.Future[None] | None = None
        self._mover: DataMover | UdpMover | None = None
        self._terminate = asyncio.Event()
        self._terminate_reason = ""
        self._meter: Meter | None = None  # from the test's start
        self._local: list[LocalStream] | None = None
        self._congestion: str | None = None
        self._told_terminate = False
        # The client's next state message, read ahead while streams connect and data moves.
        self._next_state: asyncio.Task[int] | None = None

    # -- called by the server ---------------------------------------------------------------
    def offer_stream(self, sock: socket.socket, peer: tuple[str, int]) -> bool:
        """Take a data connection that sent this test's cookie; False when no more are due."""
        if not self.accepting_streams or len(self._streams) >= self._expected:
            return False
        assert self.params is not None
        if (self.params.protocol == "udp") != (sock.type == socket.SOCK_DGRAM):
            return False  # a TCP connection in a UDP test, or the reverse
        index = len(self._streams)
        direction: Direction = "rx" if index < self.params.receives else "tx"
        sid = stream_ids(self._expected)[index]
        self._streams.append(DataStream(sock, sid, direction, (peer[0], peer[1])))
        ready = self._streams_ready
        if len(self._streams) == self._expected and ready is not None and not ready.done():
            ready.set_result(None)
        return True

    def terminate(self, reason: str) -> None:
        """End the test early; the client is told ``SERVER_TERMINATE``."""
        if not self._terminate.is_set():
            self._terminate_reason = reason
            self._terminate.set()

    # -- the lifecycle ----------------------------------------------------------------------
    async def run(self) -> TestResult:
        try:
            return await self._run()
        finally:
            await self._cleanup()

    async def _run(self) -> TestResult:
        try:
            return await self._phases()
        except Terminated:
            await self._tell_terminated(self._next_state)
            return self._result("aborted", self._terminate_reason, self._ended_at())
        except ControlClosed:
            return self._result(
                "aborted", "the client closed the connection unexpectedly", self._ended_at()
            )
        except asyncio.TimeoutError:
            return self._result("aborted", "timed out waiting for the client", self._ended_at())
        except (ProtocolError, OSError) as exc:
            return self._result("failed", str(exc) or type(exc).__name__, self._ended_at())
        finally:
            next_state = self._next_state
            if next_state is not None and not next_state.done():
                next_state.cancel()
                await asyncio.wait({next_state})
            if next_state is not None and not next_state.cancelled():
                next_state.exception()  # retrieved: no "exception never retrieved" warning
            if self._mover is not None and self._mover.error is not None:
                log.error("test %d: data thread failed: %r", self.test_id, self._mover.error)

    async def _phases(self) -> TestResult:
        """The protocol's steps in order; each returns early with the result of a test that
        ends there (rejected, or the client gave up)."""
        params = await self._exchange_params()
        if isinstance(params, TestResult):
            return params
        early = await self._create_streams(params)
        if early is not None:
            return early
        state, t_end = await self._test_running(params)
        if state == State.CLIENT_TERMINATE:
            return self._result("aborted", "the client terminated the test", t_end)
        if state != State.TEST_END:
            return self._result("failed", f"unexpected state {state} from client", t_end)
        return await self._exchange_results(params, t_end)

    async def _exchange_params(self) -> TestParams | TestResult:
        await self.ctrl.send_state(State.PARAM_EXCHANGE)
        raw = await until(self.ctrl.recv_json(), self.setup_timeout, self._terminate)
        try:
            params = TestParams.from_json(raw)
        except (ValueError, TypeError, OverflowError) as exc:  # a value no iperf3 sends
            raise ProtocolError(f"bad parameters from client: {exc}") from None
        self.params = params
        try:
            params.check_supported()
        except Rejected as rej:
            log.info("test %d rejected: %s", self.test_id, rej.reason)
            await self.ctrl.send(encode_server_error(rej.code))
            return self._result("rejected", rej.reason)
        return params

    async def _create_streams(self, params: TestParams) -> TestResult | None:
        self._expected = params.total_streams
        self._streams_ready = asyncio.get_running_loop().create_future()
        udp = open_udp_socket(self.ctrl.sock, params) if params.protocol == "udp" else None
        self.accepting_streams = True
        await self.ctrl.send_state(State.CREATE_STREAMS)
        next_state = self._next_state = asyncio.ensure_future(self.ctrl.recv_state())
        udp_task = None if udp is None else asyncio.ensure_future(accept_udp_streams(udp, self))
        try:
            await until_either(self._streams_ready, next_state, self.setup_timeout, self._terminate)
        finally:
            if udp_task is not None:
                udp_task.cancel()  # stops its reader; closes the socket if no stream took it
                await asyncio.wait({udp_task})
        if next_state.done():
            state = next_state.result()  # the client gave up before all streams came
            return self._result("aborted", f"client sent state {state} during setup")
        self.accepting_streams = False
        return None

    async def _test_running(self, params: TestParams) -> tuple[int, float]:
        """Move the data until the client's next state; (that state, the end time)."""
        ctrl = self.ctrl
        loop = asyncio.get_running_loop()
        for stream in self._streams if params.protocol == "tcp" else ():
            configure_data_socket(stream.sock, params, stream.direction)
        await ctrl.send_state(State.TEST_START)
        mover_done: asyncio.Future[None] = loop.create_future()

        def _mover_finished() -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(set_done, mover_done)

        mover = UdpMover if params.protocol == "udp" else DataMover
        self._mover = mover(self._streams, params, on_done=_mover_finished)
        meter = self._meter = Meter(
            self.test_id,
            self.client,
            params,
            self._streams,
            self._mover,
            interval=self.interval,
            emit=self._emit,
        )
        self._mover.start()
        await ctrl.send_state(State.TEST_RUNNING)
        self._notify_start(params)
        ticker = asyncio.ensure_future(meter.tick(self.terminate))
        try:
            watchdog = params.omit + params.duration + END_GRACE if params.duration else None
            while True:
                assert self._next_state is not None
                state = await until(self._next_state, watchdog, self._terminate, cancel=False)
                if state != State.TEST_START:  # C ignores a stray TEST_START too
                    break
                self._next_state = asyncio.ensure_future(ctrl.recv_state())
        except Terminated:
            # Tell the client before its data connections close under it, so it reports
            # "the server has terminated" rather than a reset stream.
            await self._tell_terminated(self._next_state)
            raise
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            t_end = time.monotonic()
            self._mover.stop()
            with contextlib.suppress(asyncio.TimeoutError):
                await aio.wait_for(asyncio.shield(mover_done), 5.0)
            meter.final_tick(t_end)
            self._freeze(t_end)
        return state, t_end

    async def _exchange_results(self, params: TestParams, t_end: float) -> TestResult:
        ctrl = self.ctrl
        local = self._local or []
        await ctrl.send_state(State.EXCHANGE_RESULTS)
        raw = await until(ctrl.recv_json(), self.setup_timeout, self._terminate)
        peer = parse_peer_results(raw)
        provisional = self._result("completed", "", t_end, peer=peer, local=local)
        text = None
        if params.get_server_output:
            shown = self._meter.text if self._meter is not None else []
            text = "\n".join([*shown, *format_summary(provisional)]) + "\n"
        await ctrl.send_json(
            build_server_results(
                local,
                self._cpu(t_end),
                sender_has_retransmits=self._sender_has_retransmits(),
                congestion=provisional.congestion,
                server_output_text=text,
            )
        )
        await ctrl.send_state(State.DISPLAY_RESULTS)
        with contextlib.suppress(ProtocolError, asyncio.TimeoutError, Terminated, OSError):
            await until(ctrl.recv_state(), DONE_TIMEOUT, self._terminate)  # IPERF_DONE
        return provisional

    async def _tell_terminated(self, next_state: asyncio.Future[int] | None) -> None:
        """Send SERVER_TERMINATE once, then give the client a moment to hang up."""
        if self._told_terminate:
            return
        self._told_terminate = True
        with contextlib.suppress(OSError, asyncio.TimeoutError):
            await aio.wait_for(self.ctrl.send_state(State.SERVER_TERMINATE), 1.0)
            if next_state is not None and not next_state.done():
                await asyncio.wait({next_state}, timeout=1.0)

    # -- measuring ----------------------------------------------------------------------------
    def _notify_start(self, params: TestParams) -> None:
        if self._on_start is None:
            return
        info = TestStart(
            self.test_id,
            self.client,
            params,
            tuple((s.stream_id, s.direction) for s in self._streams),
        )
        try:
            self._on_start(info)
        except Exception:
            log.exception("on_test_start callback failed")

    def _freeze(self, t_end: float) -> None:
        """Take the final counts, then close the data connections at once, as the C server
        does on TEST_END: a client still reading a reverse stream sees EOF instead of waiting
        for the rest of a block that will never come."""
        if self._local is None:
            self._local = self._meter.local_streams(t_end) if self._meter is not None else []
            if self._streams:
                self._congestion = congestion_used(self._streams[0].sock)
        self._close_streams()

    def _close_streams(self) -> None:
        for stream in self._streams:
            with contextlib.suppress(OSError):
                stream.sock.close()

    def _ended_at(self) -> float | None:
        return time.monotonic() if self._mover is not None else None

    def _cpu(self, t_end: float) -> tuple[float, float, float]:
        meter = self._meter
        return meter.cpu(t_end) if meter is not None else cpu_percent(None, 0.0)

    def _sender_has_retransmits(self) -> int:
        assert self.params is not None
        if self.params.sends == 0:
            return -1
        tx = [s for s in self._local or [] if s.direction == "tx"]
        return 1 if tx and all(s.retransmits is not None for s in tx) else 0

    def _result(
        self,
        status: Status,
        reason: str,
        t_end: float | None = None,
        *,
        peer: PeerResults | None = None,
        local: list[LocalStream] | None = None,
    ) -> TestResult:
        if local is None and t_end is not None and self._mover is not None:
            self._freeze(t_end)
            local = self._local
        streams = combine(local or [], peer)
        congestion = self._congestion
        meter = self._meter
        cpu = meter.cpu(t_end)[0] if t_end is not None and meter is not None else None
        return TestResult(
            test_id=self.test_id,
            client=self.client,
            status=status,
            params=self.params,
            reason=reason,
            started_at=meter.wall_start if meter is not None else 0.0,
            streams=tuple(streams),
            sums=summarize(streams),
            cpu_util_total=cpu,
            peer_cpu_util_total=peer.cpu_util_total if peer is not None else None,
            congestion=congestion,
        )

    async def _cleanup(self) -> None:
        self.accepting_streams = False
        if self._mover is not None:
            self._mover.stop()
            if self._mover.running:
                await asyncio.to_thread(self._mover.join, 5.0)
            self._mover.close()
        self._close_streams()
        with contextlib.suppress(OSError):
            self.ctrl.sock.close()
