"""iperf3's UDP datagram header and the receiver's accounting: loss, out-of-order and jitter.

Every UDP datagram of an iperf3 test opens with (``iperf_udp_send`` in esnet/iperf
``src/iperf_udp.c``): the sender's clock as seconds and microseconds (two 32-bit big-endian
integers), then the datagram's sequence number, starting at 1: 64-bit big-endian when the
client's parameters carry ``udp_counters_64bit`` (iperf3 3.1 and later do), else 32-bit. The
rest of the datagram is payload.

The receiver (``iperf_udp_recv``) keeps, per stream:

* ``packet_count``: the highest sequence number seen. A number above ``packet_count + 1``
  counts the gap as lost (``cnt_error``); a number at or below it is out of order and takes
  one back from the lost count (it was counted lost when the gap appeared).
* ``jitter``: RFC 1889's smoothed mean deviation of the transit time, ``J += (|D| - J) / 16``,
  where D is the change in (arrival time - send time) from the previous datagram. The two
  clocks need not agree: their offset cancels in D. The first datagram (and the first after
  ``-O``) only sets the previous transit time.

When the client's ``-O`` warm-up ends, iperf3 keeps the counts reached so far as "omitted"
(the results carry both, the client subtracts) and restarts jitter from zero
(``iperf_reset_stats``); :meth:`UdpStats.end_omit` does the same.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

#: Bytes of the header before the payload: sec, usec, then the counter.
HEADER_64 = 16
HEADER_32 = 12
_HEAD_64 = struct.Struct("!IIQ")
_HEAD_32 = struct.Struct("!III")


def header_size(counters_64bit: bool) -> int:
    return HEADER_64 if counters_64bit else HEADER_32


def pack_header(buf: bytearray, sec: int, usec: int, count: int, counters_64bit: bool) -> None:
    """Write the header at the start of ``buf`` (the datagram about to be sent)."""
    if counters_64bit:
        _HEAD_64.pack_into(buf, 0, sec & 0xFFFFFFFF, usec, count & 0xFFFFFFFFFFFFFFFF)
    else:
        _HEAD_32.pack_into(buf, 0, sec & 0xFFFFFFFF, usec, count & 0xFFFFFFFF)


def unpack_header(data: bytes | bytearray, counters_64bit: bool) -> tuple[int, int, int]:
    """(sec, usec, sequence number) of a datagram at least ``header_size`` bytes long."""
    sec, usec, count = (_HEAD_64 if counters_64bit else _HEAD_32).unpack_from(data, 0)
    return int(sec), int(usec), int(count)


@dataclass
class UdpStats:
    """One stream's UDP figures, as iperf3 keeps them (cumulative since the test started)."""

    packet_count: int = 0  # receiver: highest sequence seen; sender: datagrams sent
    cnt_error: int = 0  # lost: gaps in the sequence, less the late arrivals that filled them
    outoforder: int = 0
    jitter: float = 0.0  # seconds
    omitted_packet_count: int = 0
    omitted_cnt_error: int = 0
    omitted_outoforder: int = 0
    bytes: int = 0
    _prev_transit: float = 0.0
    _first: bool = True

    def received(self, sequence: int, sent_at: float, arrived_at: float, size: int) -> None:
        """Account one datagram: ``sent_at`` from its header, ``arrived_at`` on our clock."""
        self.bytes += size
        if sequence >= self.packet_count + 1:
            if sequence > self.packet_count + 1:
                self.cnt_error += sequence - 1 - self.packet_count
            self.packet_count = sequence
        else:
            self.outoforder += 1
            if self.cnt_error > 0:
                self.cnt_error -= 1
        transit = arrived_at - sent_at
        if self._first:
            self._prev_transit = transit
            self._first = False
        d = abs(transit - self._prev_transit)
        self._prev_transit = transit
        self.jitter += (d - self.jitter) / 16.0

    def end_omit(self) -> None:
        """The ``-O`` warm-up ended: what was counted so far is "omitted"; jitter restarts."""
        self.omitted_packet_count = self.packet_count
        self.omitted_cnt_error = self.cnt_error
        self.omitted_outoforder = self.outoforder
        self.jitter = 0.0
        self._first = True

    # -- the figures after -O, as the client prints them --------------------------------------
    @property
    def packets(self) -> int:
        return self.packet_count - self.omitted_packet_count

    @property
    def lost(self) -> int:
        return self.cnt_error - self.omitted_cnt_error

    @property
    def out_of_order(self) -> int:
        return self.outoforder - self.omitted_outoforder

    @property
    def lost_percent(self) -> float:
        return 100.0 * self.lost / self.packets if self.packets > 0 else 0.0
