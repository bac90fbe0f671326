"""Data movement for one test: all of its data streams are served by one dedicated thread.

The event loop only runs the control protocol; the bytes move on a plain thread that waits on
an ``epoll`` set (``selectors`` where epoll is missing) and calls ``recv_into`` into one reused
1 MiB buffer, or ``send`` of a preallocated block, on non-blocking sockets. Each call releases
the GIL for the copy, and the Python work per call is a few hundred nanoseconds against tens of
microseconds of copying, so the thread keeps up with C iperf3 on loopback.

Senders write up to ``MAX_BURST`` blocks of the client's ``-l`` size per wake-up, as the C
server does; in a ``--bidir`` test receives are one block per wake-up too, so the two
directions share the thread the way they share ``iperf3 -s``.

Counters are plain per-stream integers that only this thread writes; the event loop reads them
for live intervals (a read of a list item is atomic under the GIL).
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .protocol import TestParams

Direction = Literal["rx", "tx"]

#: One receive call takes at most this much; larger than iperf3's 128 KiB blocks, so the
#: endpoint makes fewer calls than the C server for the same bytes.
RECV_SIZE = 1024 * 1024
#: Blocks sent per stream per wake-up (unpaced), at most; C iperf3's "multisend" is 10.
MAX_BURST = 10
#: Reads done per stream when the test ends, to count what already arrived.
DRAIN_READS = 64

_IN = 0x001  # EPOLLIN == POLLIN
_OUT = 0x004  # EPOLLOUT == POLLOUT


@dataclass
class DataStream:
    """One accepted data connection of a test."""

    sock: socket.socket
    stream_id: int
    direction: Direction
    peer: tuple[str, int]


def configure_data_socket(sock: socket.socket, params: TestParams, direction: Direction) -> None:
    """Apply the client's per-socket options (best effort, as the C server does)."""
    sock.setblocking(False)
    with contextlib.suppress(OSError):
        if params.nodelay:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if params.window > 0:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, params.window)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, params.window)
    if params.tos and sock.family == socket.AF_INET:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, params.tos)
    congestion = getattr(socket, "TCP_CONGESTION", None)
    if params.congestion and congestion is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, congestion, params.congestion.encode())
    pacing = getattr(socket, "SO_MAX_PACING_RATE", 47 if sys.platform == "linux" else None)
    if params.fqrate and direction == "tx" and pacing is not None:
        with contextlib.suppress(OSError):
            # iperf3's --fq-rate is in bits per second; the socket option in bytes per second.
            sock.setsockopt(socket.SOL_SOCKET, pacing, params.fqrate // 8)


def congestion_used(sock: socket.socket) -> str | None:
    """The TCP congestion control algorithm of ``sock``, where the OS says."""
    option = getattr(socket, "TCP_CONGESTION", None)
    if option is None:
        return None
    try:
        raw = sock.getsockopt(socket.IPPROTO_TCP, option, 16)
    except OSError:
        return None
    return raw.split(b"\0", 1)[0].decode(errors="replace") or None


_TCPI_TOTAL_RETRANS = 100  # offset of tcpi_total_retrans in Linux's struct tcp_info


def total_retransmits(sock: socket.socket) -> int | None:
    """Linux's ``tcpi_total_retrans`` for ``sock``; None where TCP_INFO is not available."""
    option = getattr(socket, "TCP_INFO", None)
    if option is None or sys.platform != "linux":
        return None
    try:
        raw = sock.getsockopt(socket.IPPROTO_TCP, option, _TCPI_TOTAL_RETRANS + 4)
    except OSError:
        return None
    if len(raw) < _TCPI_TOTAL_RETRANS + 4:
        return None
    value: int = struct.unpack_from("I", raw, _TCPI_TOTAL_RETRANS)[0]
    return value


class _Poller:
    """Readiness of many sockets: epoll where there is one, else ``selectors``."""

    def __init__(self) -> None:
        self._epoll = select.epoll() if hasattr(select, "epoll") else None
        self._sel = None if self._epoll is not None else selectors.DefaultSelector()

    def register(self, fd: int, mask: int) -> None:
        if self._epoll is not None:
            self._epoll.register(fd, mask)
        else:
            assert self._sel is not None
            self._sel.register(fd, self._sel_events(mask))

    def modify(self, fd: int, mask: int) -> None:
        if self._epoll is not None:
            self._epoll.modify(fd, mask)
        else:
            assert self._sel is not None
            # A selector has no empty mask: a parked sender leaves it and comes back later
            # (Windows' and macOS' path; modify() of an fd it left raised KeyError there).
            watched = fd in self._sel.get_map()
            if mask and watched:
                self._sel.modify(fd, self._sel_events(mask))
            elif mask:
                self._sel.register(fd, self._sel_events(mask))
            elif watched:
                self._sel.unregister(fd)

    def unregister(self, fd: int) -> None:
        with contextlib.suppress(KeyError, OSError, ValueError):
            if self._epoll is not None:
                self._epoll.unregister(fd)
            else:
                assert self._sel is not None
                self._sel.unregister(fd)

    def poll(self, timeout: float | None) -> list[tuple[int, int]]:
        if self._epoll is not None:
            return self._epoll.poll(-1 if timeout is None else timeout)
        assert self._sel is not None
        return [
            (
                key.fd,
                (_IN if ev & selectors.EVENT_READ else 0)
                | (_OUT if ev & selectors.EVENT_WRITE else 0),
            )
            for key, ev in self._sel.select(timeout)
        ]

    def close(self) -> None:
        if self._epoll is not None:
            self._epoll.close()
        elif self._sel is not None:
            self._sel.close()

    @staticmethod
    def _sel_events(mask: int) -> int:
        return (selectors.EVENT_READ if mask & _IN else 0) | (
            selectors.EVENT_WRITE if mask & _OUT else 0
        )


class MoverThread:
    """The thread that moves one test's data, as the session drives it, TCP's (``DataMover``)
    and UDP's (``udp.UdpMover``) alike: per-stream ``counts`` and ``open``, ``error``, and
    start / stop / join. ``stop()`` writes to a wake-up socket pair that the thread's wait
    includes, so it returns at once. A subclass's ``_run()`` moves the data."""

    def __init__(
        self,
        streams: list[DataStream],
        params: TestParams,
        on_done: Callable[[], None] | None,
        thread_name: str,
    ) -> None:
        self.streams = streams
        self.params = params
        for stream in streams:
            stream.sock.setblocking(False)
        self.counts: list[int] = [0] * len(streams)
        self.open: list[bool] = [True] * len(streams)
        self.error: BaseException | None = None
        self.started_at = 0.0
        self._on_done = on_done
        self._stop = False
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    # -- control (event loop side) ---------------------------------------------------------
    def start(self) -> None:
        self.started_at = time.monotonic()
        self._thread.start()

    def stop(self) -> None:
        """Ask the thread to finish: it drains what already arrived, then exits."""
        self._stop = True
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def join(self, timeout: float | None = None) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def close(self) -> None:
        """Close the wake-up pair (the data sockets belong to the session)."""
        self._wake_r.close()
        self._wake_w.close()

    def _run(self) -> None:
        raise NotImplementedError


class DataMover(MoverThread):
    """Receives and sends on a test's data streams until told to stop.

    ``counts[i]`` is the number of bytes received (rx) or sent (tx) on ``streams[i]`` so far.
    """

    def __init__(
        self,
        streams: list[DataStream],
        params: TestParams,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(streams, params, on_done, "sbctune-endpoint-data")
        payload = bytes(params.blksize) if params.repeating_payload else os.urandom(params.blksize)
        self._payload = memoryview(payload)

    # -- the thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        poller = _Poller()
        try:
            self._move(poller)
            self._drain()
        except BaseException as exc:  # reported to the session, never lost in the thread
            self.error = exc
        finally:
            poller.close()
            if self._on_done is not None:
                self._on_done()

    def _move(self, poller: _Poller) -> None:
        _MoveLoop(self, poller).run()

    def _stop_sending(
        self,
        poller: _Poller,
        socks: list[socket.socket],
        is_rx: list[bool],
        parked: dict[int, float],
    ) -> None:
        for j, sock in enumerate(socks):
            if not is_rx[j] and self.open[j]:
                poller.modify(sock.fileno(), 0)
                parked.pop(j, None)

    def _drain(self) -> None:
        """Count what already arrived on the receiving streams when the test ended."""
        rbuf = bytearray(RECV_SIZE)
        for i, stream in enumerate(self.streams):
            if stream.direction != "rx" or not self.open[i]:
                continue
            for _ in range(DRAIN_READS):
                try:
                    n = stream.sock.recv_into(rbuf)
                except OSError:
                    break
                if not n:
                    break
                self.counts[i] += n


class _MoveLoop:
    """The data thread's loop for one test: it waits on every stream and the wake-up pair,
    receives on rx streams and sends on tx ones (bursts, pacing for reverse -b, -n/-k limits)."""

    def __init__(self, mover: DataMover, poller: _Poller) -> None:
        self.mover = mover
        self.poller = poller
        streams = mover.streams
        params = mover.params
        self.counts = mover.counts
        self.socks = [s.sock for s in streams]
        self.is_rx = [s.direction == "rx" for s in streams]
        self.index = {s.sock.fileno(): i for i, s in enumerate(streams)}
        self.payload = mover._payload
        # In a bidir test, read one block per wake-up like the C server, so sending (up to
        # MAX_BURST blocks) and receiving get the same share of the thread as with iperf3 -s.
        self.rbuf = bytearray(len(self.payload) if params.mode == "bidir" else RECV_SIZE)
        self.rate = params.rate
        self.limit_bytes = params.bytes_limit
        self.limit_blocks = params.blocks_limit
        self.limited = bool(self.limit_bytes or self.limit_blocks) and params.sends > 0
        self.blocks_sent = 0
        self.sent_total = 0
        # Paced, a sender parks as soon as it is ahead (after each block); behind, it catches
        # up with up to MAX_BURST blocks per wake-up: where the poll's timer is coarse
        # (Windows: ~15.6 ms) one block per wake-up fell short of the rate.
        self.burst = MAX_BURST
        # Pacing (reverse -b): a sender that is ahead of its rate is parked until it is not.
        self.parked: dict[int, float] = {}
        self.live = len(streams)
        self.t0 = time.monotonic()

    def run(self) -> None:
        mover, poller = self.mover, self.poller
        wake = mover._wake_r
        poller.register(wake.fileno(), _IN)
        for i, sock in enumerate(self.socks):
            poller.register(sock.fileno(), _IN if self.is_rx[i] else _OUT)
        while not mover._stop and self.live:
            for fd, _events in poller.poll(self._release_parked()):
                i = self.index.get(fd, -1)
                if i < 0:
                    with contextlib.suppress(OSError):
                        wake.recv(64)
                    continue
                alive = self._receive(i) if self.is_rx[i] else self._send(i, fd)
                if not alive:  # closed or failed: stop watching this stream
                    poller.unregister(fd)
                    self.parked.pop(i, None)
                    mover.open[i] = False
                    self.live -= 1

    def _release_parked(self) -> float | None:
        """Wake the paced senders that are due; the poll timeout until the next one."""
        if not self.parked:
            return None
        now = time.monotonic()
        for i, release in list(self.parked.items()):
            if release <= now:
                del self.parked[i]
                self.poller.modify(self.socks[i].fileno(), _OUT)
        return max(0.0, min(self.parked.values()) - now) if self.parked else None

    def _receive(self, i: int) -> bool:
        try:
            n = self.socks[i].recv_into(self.rbuf)
        except BlockingIOError:
            return True
        except OSError:
            n = 0
        self.counts[i] += n
        return n > 0

    def _send(self, i: int, fd: int) -> bool:
        """Several blocks per wake-up (C iperf3 sends up to 10), so a bidir test does not
        favour the receiving side; paced, only while the sender is behind its rate."""
        sock = self.socks[i]
        n = 1
        for _ in range(self.burst):
            try:
                n = sock.send(self.payload)
            except BlockingIOError:
                break
            except OSError:
                n = 0
            if not n:
                break
            self.counts[i] += n
            self.blocks_sent += 1
            self.sent_total += n
            if self.limited and self._limit_reached():
                self.mover._stop_sending(self.poller, self.socks, self.is_rx, self.parked)
                self.limited = False
                break
            if self.rate:
                due = self.t0 + self.counts[i] * 8 / self.rate
                if due > time.monotonic():
                    self.parked[i] = due
                    self.poller.modify(fd, 0)
                    break
            if n < len(self.payload):
                break
        return bool(n)

    def _limit_reached(self) -> bool:
        return bool(
            (self.limit_bytes and self.sent_total >= self.limit_bytes)
            or (self.limit_blocks and self.blocks_sent >= self.limit_blocks)
        )
