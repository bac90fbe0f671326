"""The UDP test's socket: the receive buffer it asks for, and the datagrams its own buffer
dropped told apart from the network's loss (Linux SO_RXQ_OVFL)."""

from __future__ import annotations

import logging
import socket
import sys
import time

import pytest

from sbctune.measure.endpoint.protocol import TestParams
from sbctune.measure.endpoint.streams import DataStream
from sbctune.measure.endpoint.udp import UdpMover
from sbctune.measure.endpoint.udp_socket import UDP_RCVBUF, open_udp_socket
from sbctune.measure.endpoint.udp_stats import pack_header

linux = pytest.mark.skipif(sys.platform != "linux", reason="SO_RXQ_OVFL is Linux's")


def _rmem_max() -> int:
    with open("/proc/sys/net/core/rmem_max", encoding="ascii") as fh:
        return int(fh.read())


@linux
def test_the_socket_asks_for_a_large_receive_buffer() -> None:
    ctrl = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ctrl.bind(("127.0.0.1", 0))
    sock = open_udp_socket(ctrl, TestParams(protocol="udp"))
    try:
        granted = sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    finally:
        sock.close()
        ctrl.close()
    # Linux doubles what it accepts: all of UDP_RCVBUF with CAP_NET_ADMIN (SO_RCVBUFFORCE),
    # else as much as net.core.rmem_max lets, never less than that cap gives.
    assert granted >= min(2 * UDP_RCVBUF, 2 * _rmem_max())
    assert granted > 2 * 212992 or _rmem_max() <= 212992  # more than the default, when allowed


@linux
def test_datagrams_the_socket_dropped_are_counted_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))
    # The smallest buffer the kernel grants: a few datagrams fit, the rest are dropped.
    server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client.bind(("127.0.0.1", 0))
    client.connect(server.getsockname())
    peer = client.getsockname()
    params = TestParams(protocol="udp", blksize=1000, udp_counters_64bit=True)
    mover = UdpMover([DataStream(server, 1, "rx", (peer[0], peer[1]))], params)
    buf = bytearray(1000)

    def send(first: int, count: int) -> None:
        for seq in range(first, first + count):
            pack_header(buf, int(time.time()), 0, seq, True)
            client.send(buf)

    send(1, 200)  # the thread is not reading yet: the socket overflows
    mover.start()
    try:
        deadline = time.monotonic() + 5
        while mover.stats[0].packets == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        for seq in range(201, 206):  # one at a time, each read: these carry the drop count
            send(seq, 1)
            while mover.stats[0].packets < seq and time.monotonic() < deadline:
                time.sleep(0.01)
    finally:
        with caplog.at_level(logging.WARNING, logger="sbctune.measure.endpoint.udp"):
            mover.stop()
            mover.join(5)
        mover.close()
        server.close()
        client.close()
    stats = mover.stats[0]
    assert mover.error is None and stats.packets == 205
    assert mover.socket_drops is not None and mover.socket_drops > 100
    assert stats.lost == mover.socket_drops  # loopback loses nothing else
    assert f"this PC's socket dropped {mover.socket_drops} datagrams" in caplog.text
    assert "`sudo sysctl -w net.core.rmem_max=8388608` lets it keep more" in caplog.text
