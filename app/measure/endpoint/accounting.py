"""The endpoint's own figures for a test: bytes and retransmissions per stream, and the CPU the
endpoint used (the ``local`` side of iperf3's results)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .results import LocalStream
from .streams import DataStream, total_retransmits
from .udp_stats import UdpStats


def local_streams(
    streams: Sequence[DataStream],
    counts: Sequence[int],
    retrans_base: Sequence[int | None],
    seconds: float,
    udp: Sequence[UdpStats] | None = None,
) -> list[LocalStream]:
    """One record per stream: ``counts`` are the bytes since the measured part began, and
    retransmissions are counted from ``retrans_base`` (the sender's streams only); ``udp``
    carries each stream's datagram counts in a UDP test."""
    local = []
    for i, stream in enumerate(streams):
        retrans: int | None = None
        if stream.direction == "tx":
            now = total_retransmits(stream.sock)
            base = retrans_base[i] if i < len(retrans_base) else None
            if now is not None and base is not None:
                retrans = max(0, now - base)
        stats = udp[i] if udp is not None and i < len(udp) else None
        local.append(
            LocalStream(stream.stream_id, stream.direction, counts[i], seconds, retrans, stats)
        )
    return local


def cpu_percent(start: os.times_result | None, wall: float) -> tuple[float, float, float]:
    """(total, user, system) CPU use of this process since ``start``, in % of one CPU."""
    if start is None:
        return (0.0, 0.0, 0.0)
    now = os.times()
    wall = max(1e-9, wall)
    user = (now.user - start.user) / wall * 100
    system = (now.system - start.system) / wall * 100
    return (user + system, user, system)
