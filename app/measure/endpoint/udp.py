"""UDP tests (``iperf3 -u``): the "connect" handshake, and the thread that moves datagrams.

**Handshake** (``iperf_udp_connect``/``iperf_udp_accept`` in esnet/iperf ``src/iperf_udp.c``):
after ``CREATE_STREAMS`` the client opens one UDP socket per stream, connected to the server's
port, and sends a 4-byte datagram (``UDP_CONNECT_MSG``, "9876" on the wire from a little-endian
client; older clients sent 123456789); it waits for any 4-byte answer, which the C server sends
as ``UDP_CONNECT_REPLY`` (0x39383736 as a native int: "6789" on the wire). The endpoint answers
the same bytes. The C server connects one socket per stream and opens a new listener each time;
the endpoint keeps ONE unconnected socket for the test, bound to the address and port the
client's control connection reached (so replies leave from the address the client connected
to), and tells streams apart by the client's address and port. That works the same on Linux,
Windows and macOS, where several sockets sharing a UDP port behave differently.

**Datagram size**: the client's ``-l`` (sent in the parameters). iperf3 3.12 defaults it to
the control connection's TCP MSS, i.e. the path MTU less the headers, so a datagram is never
IP-fragmented (a fragment lost loses the whole datagram and inflates "loss"). sbctune's UDP
plan leaves it to that default.

**Socket buffers**: the client's ``-w`` when given. Otherwise the endpoint asks for a large
receive buffer (sbctune.measure.endpoint.udp_socket: the data thread is Python, and a pause must
not overflow it, or the endpoint would report as network loss what its own socket dropped;
datagrams the socket dropped are counted and logged). The send buffer stays the OS default, as
the C server's: a larger one lets datagrams pile up in this PC's own queue
(a local qdisc drops them) where the C server's sender is held back by the kernel, so the two
would not report the same loss on the same link.

**Pacing** when the endpoint sends (``-R``): as iperf3 does, each stream aims at the client's
``-b`` bit rate averaged from the start of the test: a datagram is due when the bits sent so
far, at that rate, reach now. The thread wakes about every ``pacing_timer`` (iperf3's
``--pacing-timer``, 1 ms by default) and sends what is due, so the datagrams leave evenly
spread (a few per millisecond) instead of as line-rate bursts that overflow a switch or a
shaper queue and show loss that the link does not have (esnet/iperf #386). After a stall the
debt is caught up in bursts of at most ``SEND_BURST`` datagrams between receive checks; when
the send buffer is full the thread waits for the kernel to take more, then goes on. ``-n`` and
``-k`` stop the sending at the limit, as the C server does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import selectors
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Protocol

from .protocol import TestParams
from .streams import DataStream, MoverThread
from .udp_socket import (
    ANC_SIZE,
    UDP_RCVBUF,
    ancillary,
    drops_text,
    enable_drop_counts,
    enable_kernel_timestamps,
    open_udp_socket,
)
from .udp_stats import UdpStats, header_size, pack_header, unpack_header

__all__ = ["UDP_RCVBUF", "UdpMover", "accept_udp_streams", "open_udp_socket"]

log = logging.getLogger(__name__)

#: The C server's reply to a client's connect datagram, written as a native (little-endian on
#: every platform sbctune runs on) 32-bit integer, as the C server writes it.
UDP_CONNECT_REPLY = struct.pack("<I", 0x39383736)
#: Datagrams sent per stream per wake-up at most, so receiving is never starved.
SEND_BURST = 32
#: Datagrams read per wake-up at most when the thread also sends (then the senders get their
#: turn); a thread that only receives reads until the socket is empty (at most DRAIN_READS).
RECV_BURST = 256
#: Seconds between checks for "stop" while waiting for connect datagrams.
HANDSHAKE_POLL = 0.05
#: The largest datagram read; larger than any UDP payload over IPv4/IPv6.
RECV_SIZE = 65536
#: Datagrams read after the test ended, to count what had already arrived.
DRAIN_READS = 4096


class StreamTaker(Protocol):
    def offer_stream(self, sock: socket.socket, peer: tuple[str, int]) -> bool: ...


async def accept_udp_streams(sock: socket.socket, session: StreamTaker) -> None:
    """Answer each client address's connect datagram; a new address is offered to ``session``
    as the test's next stream (on this one socket), until it takes no more.

    A repeated datagram from a known address is answered again (its reply may have been lost)
    and makes no new stream. The caller bounds the wait, then cancels this and awaits its end:
    the reading thread has stopped by then (so it cannot eat a data datagram), and the socket
    is closed unless a stream took it. A thread, not the event loop, reads: asyncio's
    ``sock_recvfrom`` needs Python 3.11 and selector loops lack it on Windows."""
    loop = asyncio.get_running_loop()
    arrived: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
    stop = threading.Event()

    def receive() -> None:
        sock.settimeout(HANDSHAKE_POLL)
        while not stop.is_set():
            try:
                data, addr = sock.recvfrom(64)
            except (TimeoutError, ConnectionResetError):  # reset: an old ICMP on Windows
                continue
            except OSError:
                return
            if len(data) != 4:
                continue
            with contextlib.suppress(OSError):
                sock.sendto(UDP_CONNECT_REPLY, addr)
            loop.call_soon_threadsafe(arrived.put_nowait, (str(addr[0]), int(addr[1])))

    reader = asyncio.ensure_future(asyncio.to_thread(receive))
    peers: list[tuple[str, int]] = []
    try:
        while True:
            peer = await arrived.get()
            if peer not in peers and session.offer_stream(sock, peer):
                peers.append(peer)
    finally:
        stop.set()
        await asyncio.wait({reader})
        if not peers:
            sock.close()


class UdpMover(MoverThread):
    """Receives and sends a UDP test's datagrams on one thread, until told to stop.

    ``streams.MoverThread``'s surface (``counts``, ``start``/``stop``/``join``...), plus
    ``stats``: one ``UdpStats`` per stream. The ``-O`` warm-up is ended on this thread's clock.
    """

    def __init__(
        self,
        streams: list[DataStream],
        params: TestParams,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(streams, params, on_done, "sbctune-endpoint-udp")
        self.stats: list[UdpStats] = [UdpStats() for _ in streams]
        self._c64 = params.udp_counters_64bit
        rx = [s for s in streams if s.direction == "rx"]
        self._kernel_stamps = bool(rx) and enable_kernel_timestamps(rx[0].sock)
        self._drop_counts = bool(rx) and enable_drop_counts(rx[0].sock)
        #: Datagrams this PC's socket dropped, its buffer full (Linux; None: not known). They
        #: count as lost, as they would with the C server: the client's figures must agree.
        self.socket_drops: int | None = 0 if self._drop_counts else None
        self._recv_buf = bytearray(RECV_SIZE)
        self._full = False  # the send buffer was full at the last send
        size = max(params.blksize, header_size(self._c64))
        self._size = size
        self._rx = {s.peer: i for i, s in enumerate(streams) if s.direction == "rx"}
        self._tx = [i for i, s in enumerate(streams) if s.direction == "tx"]
        payload = bytes(size) if params.repeating_payload else os.urandom(size)
        self._bufs = {i: bytearray(payload) for i in self._tx}

    # -- the thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._loop()
            self._receive(DRAIN_READS)
            if self.socket_drops:
                log.warning("%s", drops_text(self.socket_drops, self.streams[0].sock))
        except BaseException as exc:  # reported to the session, never lost in the thread
            self.error = exc
        finally:
            if self._on_done is not None:
                self._on_done()

    def _loop(self) -> None:
        if not self.streams:
            return
        sock = self.streams[0].sock
        omit_end = self.started_at + self.params.omit if self.params.omit > 0 else None
        tick = max(1e-4, self.params.pacing_timer_us / 1e6)
        with selectors.DefaultSelector() as sel:
            sel.register(self._wake_r, selectors.EVENT_READ)
            sel.register(sock, selectors.EVENT_READ)
            watching = selectors.EVENT_READ
            while not self._stop:
                wait = self._send_due() if self._tx else 0.25
                # A full send buffer: wake when the kernel takes more, not on the next tick,
                # so datagrams leave as space frees instead of in bursts (smaller jitter).
                mask = selectors.EVENT_READ | (selectors.EVENT_WRITE if self._full else 0)
                if mask != watching:
                    sel.modify(sock, mask)
                    watching = mask
                for key, events in sel.select(min(max(wait, 0.0), tick) if self._tx else wait):
                    if key.fileobj is self._wake_r:
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(64)
                        continue
                    if events & selectors.EVENT_WRITE:
                        self._full = False
                    if events & selectors.EVENT_READ:
                        self._receive(RECV_BURST if self._tx else DRAIN_READS)
                if omit_end is not None and time.monotonic() >= omit_end:
                    for stats in self.stats:
                        stats.end_omit()
                    omit_end = None

    def _receive(self, limit: int) -> None:
        """Read up to ``limit`` datagrams that are waiting; account the ones of rx streams."""
        if not self._rx:
            return
        sock = self.streams[0].sock
        buf = self._recv_buf
        need = header_size(self._c64)
        with_anc = self._kernel_stamps or self._drop_counts
        for _ in range(limit):
            try:
                if with_anc:
                    n, anc, _flags, addr = sock.recvmsg_into([buf], ANC_SIZE)
                    now, drops = ancillary(anc)
                    if drops is not None:
                        self.socket_drops = drops
                else:
                    n, addr = sock.recvfrom_into(buf)
                    now = time.time()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionResetError:  # Windows reports an earlier ICMP error here
                continue
            except OSError:
                return
            i = self._rx.get((str(addr[0]), int(addr[1])), -1)
            if i < 0 or n < need:  # not one of this test's streams, or a stray connect message
                continue
            sec, usec, seq = unpack_header(buf, self._c64)
            self.stats[i].received(seq, sec + usec / 1e6, now, n)
            self.counts[i] += n

    def _limit_reached(self) -> bool:
        p = self.params
        if p.bytes_limit and sum(self.counts[i] for i in self._tx) >= p.bytes_limit:
            return True
        return bool(
            p.blocks_limit and sum(self.stats[i].packet_count for i in self._tx) >= p.blocks_limit
        )

    def _send_due(self) -> float:
        """Send what each paced stream owes now; seconds until the next datagram is due."""
        sock = self.streams[0].sock
        rate = self.params.rate
        now = time.monotonic()
        next_due = 1.0
        if self._full:  # wait until the socket is writable again
            return next_due
        limited = bool(self.params.bytes_limit or self.params.blocks_limit)
        for i in self._tx:
            if not self.open[i]:
                continue
            buf, peer, stats = self._bufs[i], self.streams[i].peer, self.stats[i]
            for _ in range(SEND_BURST):
                if limited and self._limit_reached():  # -n / -k: the client ends the test
                    return 1.0
                due = self.started_at + self.counts[i] * 8 / rate if rate else now
                if due > now:
                    next_due = min(next_due, due - now)
                    break
                stats.packet_count += 1
                ns = time.monotonic_ns()
                pack_header(
                    buf, ns // 1_000_000_000, ns // 1000 % 1_000_000, stats.packet_count, self._c64
                )
                try:
                    sent = sock.sendto(buf, peer)
                except (BlockingIOError, InterruptedError):  # the send buffer is full
                    stats.packet_count -= 1
                    self._full = True
                    next_due = 1.0  # until the socket is writable again (or the next tick)
                    break
                except OSError as exc:  # e.g. the client is gone (ICMP unreachable)
                    stats.packet_count -= 1
                    log.debug("UDP send to %s failed: %s", peer, exc)
                    next_due = 0.01
                    break
                self.counts[i] += sent
                stats.bytes += sent
            else:
                next_due = 0.0
        return next_due
