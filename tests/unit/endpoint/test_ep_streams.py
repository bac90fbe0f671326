"""The data thread on socket pairs: counting, pacing, limits, stopping."""

from __future__ import annotations

import select
import socket
import threading
import time

import pytest

from sbctune.measure.endpoint.protocol import TestParams
from sbctune.measure.endpoint.streams import DataMover, DataStream


def _pair() -> tuple[socket.socket, socket.socket]:
    a, b = socket.socketpair()
    return a, b


def _sink(sock: socket.socket, stop: threading.Event, got: list[int]) -> None:
    sock.settimeout(0.05)
    while not stop.is_set():
        try:
            n = len(sock.recv(1 << 20))
        except TimeoutError:
            continue
        except OSError:
            return
        if not n:
            return
        got[0] += n


def test_receives_and_drains_on_stop() -> None:
    mine, theirs = _pair()
    mover = DataMover([DataStream(mine, 1, "rx", ("x", 0))], TestParams())
    mover.start()
    try:
        theirs.sendall(b"x" * 3_000_000)
        mover.stop()
        mover.join(5)
        assert not mover.running
        assert mover.counts == [3_000_000]
        assert mover.error is None
    finally:
        mover.close()
        mine.close()
        theirs.close()


def test_sends_blocks_and_notices_closed_peer() -> None:
    mine, theirs = _pair()
    got = [0]
    stop = threading.Event()
    sink = threading.Thread(target=_sink, args=(theirs, stop, got))
    sink.start()
    mover = DataMover([DataStream(mine, 1, "tx", ("x", 0))], TestParams(blksize=65536))
    mover.start()
    try:
        time.sleep(0.2)
        assert mover.counts[0] > 0
        stop.set()
        sink.join()
        theirs.close()
        mover.join(5)  # the peer is gone: the thread ends on its own
        assert not mover.running and mover.open == [False]
    finally:
        mover.stop()
        mover.close()
        mine.close()


@pytest.mark.parametrize("poller", ["epoll", "selectors"])
def test_pacing_holds_the_rate_per_stream(poller: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if poller == "selectors":  # Windows' and macOS' path, taken here too
        monkeypatch.delattr(select, "epoll", raising=False)
    pairs = [_pair() for _ in range(2)]
    got = [0]
    stop = threading.Event()
    sinks = [threading.Thread(target=_sink, args=(b, stop, got)) for _, b in pairs]
    for t in sinks:
        t.start()
    params = TestParams(mode="reverse", parallel=2, rate=80_000_000, blksize=16384)
    mover = DataMover([DataStream(a, i, "tx", ("x", 0)) for i, (a, _) in enumerate(pairs)], params)
    started = time.monotonic()
    mover.start()
    try:
        time.sleep(0.5)
        mover.stop()
        mover.join(5)
        elapsed = time.monotonic() - started
        # Never above the rate (80 Mbit/s: 5 MB per stream in 0.5 s), whatever the machine's
        # load; and well past the first blocks (a sender left unwatched once paced sent one
        # block). How close it gets to the rate depends on the CPU it gets (under Wine on a
        # loaded machine: a third), which a unit test does not assert.
        ceiling = params.rate / 8 * elapsed * 1.1 + 4 * params.blksize
        for sent in mover.counts:
            assert 20 * params.blksize < sent < ceiling
    finally:
        stop.set()
        for t in sinks:
            t.join()
        mover.close()
        for a, b in pairs:
            a.close()
            b.close()


def test_byte_limit_stops_sending() -> None:
    mine, theirs = _pair()
    got = [0]
    stop = threading.Event()
    sink = threading.Thread(target=_sink, args=(theirs, stop, got))
    sink.start()
    params = TestParams(mode="reverse", bytes_limit=1_000_000, blksize=100_000, duration=0)
    mover = DataMover([DataStream(mine, 1, "tx", ("x", 0))], params)
    mover.start()
    try:
        time.sleep(0.3)
        assert 1_000_000 <= mover.counts[0] < 1_300_000
    finally:
        mover.stop()
        mover.join(5)
        stop.set()
        sink.join()
        mover.close()
        mine.close()
        theirs.close()
