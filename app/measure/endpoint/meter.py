"""The clock and the counts of one test's data, from TEST_RUNNING to TEST_END: the ``-O``
warm-up, a sample per stream every interval, the lines iperf3's server prints, and the measured
part's totals and CPU use. ``session.TestSession`` speaks the protocol; this only measures.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable

from .accounting import cpu_percent, local_streams
from .protocol import TestParams
from .results import IntervalSample, LocalStream
from .streams import DataMover, DataStream, Direction, total_retransmits
from .udp import UdpMover

log = logging.getLogger(__name__)

#: Seconds without a byte moving (and no TEST_END) after which the test is abandoned.
IDLE_TIMEOUT = 60.0


class Meter:
    """Measures the streams ``mover`` moves, from the moment it is made (the test's start)."""

    def __init__(
        self,
        test_id: int,
        client: tuple[str, int],
        params: TestParams,
        streams: list[DataStream],
        mover: DataMover | UdpMover,
        *,
        interval: float,
        emit: Callable[[IntervalSample], None] | None,
    ) -> None:
        self.test_id = test_id
        self.params = params
        self.interval = interval
        self._streams = streams
        self._mover = mover
        self._emit = emit
        # Timing (monotonic seconds) and counts at the start of the measured part (after -O).
        now = time.monotonic()
        self.t0 = self._t_base = self._last_tick = now
        self.wall_start = time.time()
        self.cpu0: os.times_result | None = os.times()
        n = len(streams)
        self._baseline = [0] * n
        self._last_counts = [0] * n
        self._omitting = params.omit > 0
        self._retrans_base = self._retransmits()
        host, port = client
        self.text = [f"Accepted connection from {host}, port {port} (sbctune built-in endpoint)"]

    def _retransmits(self) -> list[int | None]:
        return [total_retransmits(s.sock) if s.direction == "tx" else None for s in self._streams]

    async def tick(self, terminate: Callable[[str], None]) -> None:
        """Emit per-stream samples every interval; close the ``-O`` warm-up on time; call
        ``terminate`` when no data has moved for ``IDLE_TIMEOUT``."""
        omit_end = self.t0 + self.params.omit if self._omitting else None
        next_tick = self.t0 + self.interval
        idle_since = self.t0
        idle_counts = list(self._mover.counts)
        while True:
            if omit_end is not None and next_tick > omit_end:
                next_tick = omit_end
            await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
            now = time.monotonic()
            counts = list(self._mover.counts)
            self._sample(now, counts)
            if omit_end is not None and now >= omit_end:
                self._end_omit(now, counts)
                omit_end = None
                next_tick = now + self.interval
            else:
                next_tick += self.interval
                if next_tick <= now:  # the loop fell behind: skip, don't burst
                    next_tick = now + self.interval
            if counts != idle_counts:
                idle_since, idle_counts = now, counts
            elif now - idle_since > IDLE_TIMEOUT:
                terminate(f"no data moved for {IDLE_TIMEOUT:.0f} s")
                return

    def _sample(self, now: float, counts: list[int]) -> None:
        start = self._last_tick - self.t0
        end = now - self.t0
        if end <= start:
            return
        totals: dict[Direction, int] = {}
        for i, stream in enumerate(self._streams):
            delta = counts[i] - self._last_counts[i]
            totals[stream.direction] = totals.get(stream.direction, 0) + delta
            if self._emit is not None:
                sample = IntervalSample(
                    self.test_id,
                    start,
                    end,
                    stream.stream_id,
                    stream.direction,
                    delta,
                    self._omitting,
                )
                try:
                    self._emit(sample)
                except Exception:
                    log.exception("interval callback failed")
        for direction, total in totals.items():
            omitted = "  (omitted)" if self._omitting else ""
            self.text.append(
                f"[SUM] {start:6.2f}-{end:<6.2f} sec  {total / 1e6:10.1f} MB  "
                f"{total * 8 / (end - start) / 1e6:10.1f} Mbit/s  {direction}{omitted}"
            )
        self._last_tick = now
        self._last_counts = counts

    def _end_omit(self, now: float, counts: list[int]) -> None:
        self._omitting = False
        self._t_base = now
        self._baseline = list(counts)
        self._retrans_base = self._retransmits()

    def final_tick(self, t_end: float) -> None:
        """The last, partial interval, up to the test's end."""
        self._sample(t_end, list(self._mover.counts))

    def local_streams(self, t_end: float) -> list[LocalStream]:
        """Each stream's totals over the measured part (after ``-O``), up to ``t_end``."""
        seconds = max(0.0, t_end - self._t_base)
        raw = self._mover.counts
        counts = [raw[i] - self._baseline[i] for i in range(len(self._streams))]
        udp = self._mover.stats if isinstance(self._mover, UdpMover) else None
        return local_streams(self._streams, counts, self._retrans_base, seconds, udp)

    def cpu(self, t_end: float) -> tuple[float, float, float]:
        return cpu_percent(self.cpu0, t_end - self.t0)
