"""Listening, telling control connections from data connections, and the "busy" answer.

iperf3 uses one port for everything: each connection opens with the client's cookie. While no
test runs, a new connection becomes a test's control connection. While a test waits for its
data streams, connections with that test's cookie become its streams. Anything else gets
``ACCESS_DENIED`` (the client prints "the server is busy running a test. try again later").
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import sys
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any

from sbctune import aio
from sbctune.textsafe import visible

from .errors import EndpointStopped, bind_error
from .protocol import COOKIE_SIZE, State, encode_state, recv_exactly
from .results import IntervalSample, TestResult, TestStart
from .session import SETUP_TIMEOUT, TestSession

log = logging.getLogger(__name__)

#: Test ids are unique in the process, so several endpoints' samples can share one consumer.
_test_ids = itertools.count(1)

#: iperf3's default port.
DEFAULT_PORT = 5201

#: Seconds a new connection has to send its cookie.
COOKIE_TIMEOUT = 5.0


class IperfEndpoint:
    """An iperf3-compatible server (TCP) that a stock ``iperf3 -c`` (3.9 and later) talks to.

    ``await start()`` binds (port 0 picks a free port, then ``port`` tells which) and serves
    until ``await stop()``; with ``one_off=True`` it stops by itself after one test. It serves
    one test at a time; run several endpoints on separate ports for several at once.

    Live data: ``on_interval(IntervalSample)`` per stream per ``interval`` seconds (the iperf3
    client does not send its ``-i``), or ``async for s in endpoint.intervals()``. Results:
    ``on_result(TestResult)``, ``await wait_test()``, or ``endpoint.results``.
    """

    def __init__(
        self,
        bind: str = "127.0.0.1",
        port: int = 0,
        *,
        one_off: bool = False,
        interval: float = 1.0,
        on_interval: Callable[[IntervalSample], None] | None = None,
        on_result: Callable[[TestResult], None] | None = None,
        on_test_start: Callable[[TestStart], None] | None = None,
        setup_timeout: float = SETUP_TIMEOUT,
        backlog: int = 512,
    ) -> None:
        self.bind = bind
        self.requested_port = port
        self.one_off = one_off
        self.interval = interval
        self.on_interval = on_interval
        self.on_result = on_result
        self.on_test_start = on_test_start
        self.setup_timeout = setup_timeout
        self.backlog = backlog
        self.results: list[TestResult] = []
        self._listener: socket.socket | None = None
        self._address: tuple[str, int] | None = None
        self._accept_task: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._session: TestSession | None = None
        self._session_task: asyncio.Task[Any] | None = None
        self._stopper: asyncio.Task[None] | None = None
        self._unclaimed: asyncio.Queue[TestResult] = asyncio.Queue()
        self._subscribers: list[asyncio.Queue[IntervalSample | None]] = []
        self._closed = asyncio.Event()
        self._stopping = False
        self._served = 0

    # -- state ------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The port listened on (the requested one before ``start()``)."""
        return self._address[1] if self._address else self.requested_port

    @property
    def address(self) -> tuple[str, int]:
        return self._address if self._address else (self.bind, self.requested_port)

    @property
    def serving(self) -> bool:
        return self._listener is not None

    @property
    def busy(self) -> bool:
        return self._session is not None

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        if self._listener is not None:
            return
        self._closed = asyncio.Event()
        self._stopping = False
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(
                self.bind or None,
                self.requested_port,
                type=socket.SOCK_STREAM,
                flags=socket.AI_PASSIVE,
            )
        except socket.gaierror as exc:
            raise bind_error(OSError(0, str(exc)), self.bind, self.requested_port) from exc
        family, _type, proto, _canon, sockaddr = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM, proto)
        try:
            if sys.platform == "win32":
                sock.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", 0), 1)
            else:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and self.bind in ("::", ""):
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind(sockaddr)
            sock.listen(self.backlog)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise bind_error(exc, self.bind, self.requested_port) from exc
        self._listener = sock
        name = sock.getsockname()
        self._address = (str(name[0]), int(name[1]))
        self._accept_task = asyncio.create_task(self._accept_loop(sock))
        log.info("iperf3 endpoint listening on %s port %d", *self._address)

    async def stop(self) -> None:
        """Stop listening; a running test ends (the client hears SERVER_TERMINATE)."""
        if self._stopping:
            await self._closed.wait()
            return
        self._stopping = True
        if self._accept_task is not None:
            self._accept_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._accept_task
            self._accept_task = None
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._session is not None:
            self._session.terminate("the endpoint was stopped")
        if self._session_task is not None and self._session_task is not asyncio.current_task():
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await aio.wait_for(asyncio.shield(self._session_task), 10.0)
        current = asyncio.current_task()
        pending = [t for t in self._handlers if t is not current and not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        for queue in self._subscribers:
            queue.put_nowait(None)
        self._closed.set()
        log.info("iperf3 endpoint on port %d stopped", self.port)

    async def wait_closed(self) -> None:
        """Until the endpoint stopped (by ``stop()`` or after its one-off test)."""
        await self._closed.wait()

    async def wait_test(self, timeout: float | None = None) -> TestResult:
        """The next finished test not yet returned here; ``EndpointStopped`` if none will come."""

        async def _next() -> TestResult:
            if not self._unclaimed.empty():
                return self._unclaimed.get_nowait()
            getter = asyncio.ensure_future(self._unclaimed.get())
            closer = asyncio.ensure_future(self._closed.wait())
            try:
                await asyncio.wait({getter, closer}, return_when=asyncio.FIRST_COMPLETED)
            except BaseException:  # timed out or cancelled: the result stays unclaimed
                if getter.done() and not getter.cancelled():
                    self._unclaimed.put_nowait(getter.result())
                getter.cancel()
                raise
            finally:
                closer.cancel()
            if getter.done():
                return getter.result()
            getter.cancel()
            if not self._unclaimed.empty():
                return self._unclaimed.get_nowait()
            raise EndpointStopped("the endpoint stopped before a test finished")

        return await aio.wait_for(_next(), timeout)

    async def intervals(self) -> AsyncIterator[IntervalSample]:
        """Live samples of every test on this endpoint until it stops."""
        queue: asyncio.Queue[IntervalSample | None] = asyncio.Queue()
        self._subscribers.append(queue)
        try:
            while not self._closed.is_set() or not queue.empty():
                item = await queue.get()
                if item is None:
                    return
                yield item
        finally:
            self._subscribers.remove(queue)

    async def __aenter__(self) -> IperfEndpoint:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- connections --------------------------------------------------------------------------
    async def _accept_loop(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, addr = await loop.sock_accept(listener)
            except asyncio.CancelledError:
                raise
            except OSError as exc:  # e.g. out of file descriptors: back off, keep serving
                log.warning("accept failed: %s", exc)
                await asyncio.sleep(0.1)
                continue
            task = asyncio.create_task(self._handle(sock, (str(addr[0]), int(addr[1]))))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)

    async def _handle(self, sock: socket.socket, peer: tuple[str, int]) -> None:
        try:
            sock.setblocking(False)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                cookie = await aio.wait_for(
                    recv_exactly(sock, COOKIE_SIZE), min(COOKIE_TIMEOUT, self.setup_timeout)
                )
            except Exception:  # timeout, reset, closed early: not a client we can serve
                sock.close()
                return
            session = self._session
            if session is not None:
                if cookie == session.cookie and session.offer_stream(sock, peer):
                    return  # the session owns the socket now
                await self._deny(sock)
                return
            if self._stopping:
                sock.close()
                return
            await self._serve(sock, peer, cookie)
        except asyncio.CancelledError:
            with contextlib.suppress(OSError):
                sock.close()
            raise
        except Exception as exc:  # a client's bad input: one log line, never a traceback
            log.warning("client %s:%d: %s; connection closed", *peer, _brief(exc))
            with contextlib.suppress(OSError):
                sock.close()

    async def _deny(self, sock: socket.socket) -> None:
        with contextlib.suppress(OSError, asyncio.TimeoutError):
            loop = asyncio.get_running_loop()
            await aio.wait_for(loop.sock_sendall(sock, encode_state(State.ACCESS_DENIED)), 1)
        with contextlib.suppress(OSError):
            sock.close()

    async def _serve(self, sock: socket.socket, peer: tuple[str, int], cookie: bytes) -> None:
        session = TestSession(
            next(_test_ids),
            sock,
            peer,
            cookie,
            interval=self.interval,
            emit=self._emit,
            on_start=self.on_test_start,
            setup_timeout=self.setup_timeout,
        )
        self._session = session
        self._session_task = asyncio.current_task()
        try:
            result = await session.run()
        finally:
            self._session = None
            self._session_task = None
        self.results.append(result)
        if result.params is None:
            # No test was set up (garbage, NaN or 100 000-deep JSON as parameters, a port
            # scan): it neither ends a one-off endpoint nor stands for the test awaited here.
            log.warning("client %s:%d sent no usable test parameters (%s); connection closed",
                        *peer, _brief(result.reason))  # fmt: skip
            return
        self._served += 1
        self._unclaimed.put_nowait(result)
        log.info("test %d from %s:%d: %s", result.test_id, *peer, result.status)
        if self.on_result is not None:
            try:
                self.on_result(result)
            except Exception:
                log.exception("on_result callback failed")
        if self.one_off and not self._stopping:
            self._stopper = asyncio.create_task(self.stop())

    def _emit(self, sample: IntervalSample) -> None:
        if self.on_interval is not None:
            self.on_interval(sample)
        for queue in self._subscribers:
            queue.put_nowait(sample)


def _brief(what: object) -> str:
    """A client's error as one short printable line (its text may come from the client)."""
    return visible(str(what).replace("\n", " "))[:200]
