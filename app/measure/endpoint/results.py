"""What a test produced: live interval samples and the final results of both sides.

Directions are from the endpoint's point of view: ``rx`` is client -> endpoint (iperf3's normal
mode), ``tx`` is endpoint -> client (``-R``); a ``--bidir`` test has both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from sbctune.wording import counted

from .protocol import TestParams
from .streams import Direction
from .udp_stats import UdpStats

Status = Literal["completed", "aborted", "rejected", "failed"]


@dataclass(frozen=True)
class IntervalSample:
    """Bytes one stream moved during one reporting interval, counted by the endpoint.

    ``t_start``/``t_end`` are seconds since the test started running. Samples during the
    client's ``-O`` warm-up carry ``omitted=True`` and do not count in the final results.
    """

    test_id: int
    t_start: float
    t_end: float
    stream_id: int
    direction: Direction
    bytes: int
    omitted: bool = False

    @property
    def bits_per_second(self) -> float:
        span = self.t_end - self.t_start
        return self.bytes * 8 / span if span > 0 else 0.0


@dataclass(frozen=True)
class StreamResult:
    """One stream's totals (after ``-O``), from the endpoint and as the client reported them."""

    stream_id: int
    direction: Direction
    bytes: int
    seconds: float
    peer_bytes: int | None = None
    peer_seconds: float | None = None
    #: Retransmits counted by the sending side (the endpoint for tx, the client for rx).
    retransmits: int | None = None
    #: UDP only, from the receiving side (the endpoint for rx, the client for tx), after -O.
    udp: UdpFigures | None = None


@dataclass(frozen=True)
class UdpFigures:
    """A UDP stream's receiver figures: jitter (ms), datagrams lost of those sent, and the
    out-of-order count (known only when the endpoint received; iperf3's results omit it)."""

    jitter_ms: float
    lost: int
    packets: int
    out_of_order: int | None = None

    @property
    def lost_percent(self) -> float:
        return 100.0 * self.lost / self.packets if self.packets > 0 else 0.0


@dataclass(frozen=True)
class DirectionSum:
    """The sum over one direction's streams, as iperf3 prints it: sender and receiver side."""

    direction: Direction
    streams: int
    sender_bytes: int | None
    sender_seconds: float | None
    receiver_bytes: int | None
    receiver_seconds: float | None
    retransmits: int | None
    udp: UdpFigures | None = None  # UDP: the streams' sum (jitter: their mean, as iperf3)

    @property
    def sender_bits_per_second(self) -> float | None:
        return _rate(self.sender_bytes, self.sender_seconds)

    @property
    def receiver_bits_per_second(self) -> float | None:
        return _rate(self.receiver_bytes, self.receiver_seconds)

    @property
    def endpoint_bytes(self) -> int | None:
        return self.receiver_bytes if self.direction == "rx" else self.sender_bytes


def _rate(nbytes: int | None, seconds: float | None) -> float | None:
    if nbytes is None or not seconds or seconds <= 0:
        return None
    return nbytes * 8 / seconds


@dataclass(frozen=True)
class TestResult:
    """The end of one client session.

    ``status``: ``completed`` (results exchanged), ``aborted`` (the client went away or the
    endpoint stopped mid-test; the endpoint's own counts are still here), ``rejected`` (e.g. a
    UDP test), ``failed`` (protocol error before the test ran).
    """

    __test__ = False  # not a pytest test class

    test_id: int
    client: tuple[str, int]
    status: Status
    params: TestParams | None = None
    reason: str = ""
    started_at: float = 0.0  # wall clock (time.time()) when the data started
    streams: tuple[StreamResult, ...] = ()
    sums: Mapping[Direction, DirectionSum] = field(default_factory=dict)
    cpu_util_total: float | None = None
    peer_cpu_util_total: float | None = None
    congestion: str | None = None

    @property
    def completed(self) -> bool:
        return self.status == "completed"

    @property
    def aborted(self) -> bool:
        return self.status == "aborted"

    def sum(self, direction: Direction) -> DirectionSum | None:
        return self.sums.get(direction)


@dataclass(frozen=True)
class TestStart:
    """A test began moving data."""

    __test__ = False  # not a pytest test class

    test_id: int
    client: tuple[str, int]
    params: TestParams
    streams: tuple[tuple[int, Direction], ...]


@dataclass(frozen=True)
class PeerStream:
    """One stream of the client's own results (``EXCHANGE_RESULTS``)."""

    stream_id: int
    bytes: int
    retransmits: int
    seconds: float | None
    udp: UdpFigures | None = None


@dataclass(frozen=True)
class PeerResults:
    cpu_util_total: float
    sender_has_retransmits: int
    streams: Mapping[int, PeerStream]


def _num(value: Any, default: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value) if math.isfinite(value) else default


def parse_peer_results(raw: Mapping[str, Any]) -> PeerResults:
    """The client's results JSON; missing or odd fields become zeros rather than errors."""
    streams: dict[int, PeerStream] = {}
    for item in raw.get("streams") or []:
        if not isinstance(item, dict) or "id" not in item:
            continue
        sid = int(_num(item.get("id")))
        seconds: float | None = None
        if "end_time" in item and "start_time" in item:
            seconds = _num(item.get("end_time")) - _num(item.get("start_time"))
        streams[sid] = PeerStream(
            stream_id=sid,
            bytes=int(_num(item.get("bytes"))),
            retransmits=int(_num(item.get("retransmits"), -1)),
            seconds=seconds,
            udp=UdpFigures(
                jitter_ms=_num(item.get("jitter")) * 1000.0,
                lost=int(_num(item.get("errors")) - _num(item.get("omitted_errors"))),
                packets=int(_num(item.get("packets")) - _num(item.get("omitted_packets"))),
            ),
        )
    return PeerResults(
        cpu_util_total=_num(raw.get("cpu_util_total")),
        sender_has_retransmits=int(_num(raw.get("sender_has_retransmits"), -1)),
        streams=streams,
    )


@dataclass(frozen=True)
class LocalStream:
    """The endpoint's own count for one stream at the end of the test."""

    stream_id: int
    direction: Direction
    bytes: int
    seconds: float
    retransmits: int | None
    udp: UdpStats | None = None


def _udp_fields(s: LocalStream) -> dict[str, Any]:
    """The per-stream UDP counts iperf3 sends (``send_results``): cumulative, with the part
    counted during -O apart; jitter in seconds. Zero for TCP, as the C server sends."""
    u = s.udp
    if u is None:
        return {"jitter": 0, "errors": 0, "omitted_errors": 0, "packets": 0, "omitted_packets": 0}
    return {
        "jitter": u.jitter,
        "errors": u.cnt_error,
        "omitted_errors": u.omitted_cnt_error,
        "packets": u.packet_count,
        "omitted_packets": u.omitted_packet_count,
    }


def build_server_results(
    local: list[LocalStream],
    cpu: tuple[float, float, float],
    *,
    sender_has_retransmits: int,
    congestion: str | None,
    server_output_text: str | None,
) -> dict[str, Any]:
    """The JSON the endpoint sends in ``EXCHANGE_RESULTS`` (``send_results`` in iperf_api.c)."""
    out: dict[str, Any] = {
        "cpu_util_total": cpu[0],
        "cpu_util_user": cpu[1],
        "cpu_util_system": cpu[2],
        "sender_has_retransmits": sender_has_retransmits,
    }
    if congestion:
        out["congestion_used"] = congestion
    if server_output_text is not None:
        out["server_output_text"] = server_output_text
    out["streams"] = [
        {
            "id": s.stream_id,
            "bytes": s.bytes,
            "retransmits": (
                s.retransmits if s.direction == "tx" and s.retransmits is not None else -1
            ),
            **_udp_fields(s),
            "start_time": 0,
            "end_time": round(s.seconds, 6),
        }
        for s in local
    ]
    return out


def combine(local: list[LocalStream], peer: PeerResults | None) -> list[StreamResult]:
    """Pair the endpoint's counts with the client's, stream by stream."""
    results = []
    for s in local:
        p = peer.streams.get(s.stream_id) if peer is not None else None
        if s.udp is not None:  # UDP: no retransmits (iperf3 clients send -1 or 2**64 - 1)
            retrans = None
        elif s.direction == "tx":
            retrans = s.retransmits
        elif p is not None and p.retransmits >= 0:
            retrans = p.retransmits
        else:
            retrans = None
        results.append(
            StreamResult(
                stream_id=s.stream_id,
                direction=s.direction,
                bytes=s.bytes,
                seconds=s.seconds,
                peer_bytes=p.bytes if p is not None else None,
                peer_seconds=p.seconds if p is not None else None,
                retransmits=retrans,
                udp=_udp_figures(s, p),
            )
        )
    return results


def _udp_figures(s: LocalStream, p: PeerStream | None) -> UdpFigures | None:
    """The receiver's view: ours for rx; the client's for tx (it reports what it received)."""
    if s.udp is None:
        return None
    if s.direction == "rx":
        u = s.udp
        return UdpFigures(u.jitter * 1000.0, u.lost, u.packets, u.out_of_order)
    return p.udp if p is not None else None


def summarize(streams: list[StreamResult]) -> dict[Direction, DirectionSum]:
    """Sum per direction. Seconds are the longest stream's, as iperf3 reports a sum."""
    sums: dict[Direction, DirectionSum] = {}
    for direction in ("rx", "tx"):
        group = [s for s in streams if s.direction == direction]
        if not group:
            continue
        mine = sum(s.bytes for s in group)
        my_secs = max(s.seconds for s in group)
        peers = [s.peer_bytes for s in group]
        theirs = None
        if all(b is not None for b in peers):
            theirs = sum(b for b in peers if b is not None)
        peer_secs = [s.peer_seconds for s in group if s.peer_seconds is not None]
        their_secs = max(peer_secs) if theirs is not None and peer_secs else None
        retrans = [s.retransmits for s in group]
        total_retrans = None
        if all(r is not None for r in retrans):
            total_retrans = sum(r for r in retrans if r is not None)
        udp = _udp_sum(group)
        if direction == "rx":
            sums["rx"] = DirectionSum(
                "rx", len(group), theirs, their_secs, mine, my_secs, total_retrans, udp
            )
        else:
            sums["tx"] = DirectionSum(
                "tx", len(group), mine, my_secs, theirs, their_secs, total_retrans, udp
            )
    return sums


def _udp_sum(group: list[StreamResult]) -> UdpFigures | None:
    figures = [s.udp for s in group if s.udp is not None]
    if not figures or len(figures) != len(group):
        return None
    ooo = [f.out_of_order for f in figures]
    return UdpFigures(
        jitter_ms=sum(f.jitter_ms for f in figures) / len(figures),
        lost=sum(f.lost for f in figures),
        packets=sum(f.packets for f in figures),
        out_of_order=sum(o for o in ooo if o is not None) if None not in ooo else None,
    )


def format_summary(result: TestResult) -> list[str]:
    """One line per direction, e.g. for ``sbctune serve`` and ``--get-server-output``."""
    lines = []
    host, port = result.client
    for direction, total in result.sums.items():
        arrow = "client -> here" if direction == "rx" else "here -> client"
        here = total.endpoint_bytes or 0
        secs = total.receiver_seconds if direction == "rx" else total.sender_seconds
        mbps = here * 8 / secs / 1e6 if secs else 0.0
        extra = ""
        other = (
            total.sender_bits_per_second if direction == "rx" else total.receiver_bits_per_second
        )
        if other is not None:
            side = "sender" if direction == "rx" else "receiver"
            extra = f", client {side} {other / 1e6:.1f} Mbit/s"
        if total.udp is not None:
            u = total.udp
            extra += (
                f", jitter {u.jitter_ms:.3f} ms, lost {u.lost}/{u.packets} ({u.lost_percent:.2g} %)"
            )
            if u.out_of_order:
                extra += f", {u.out_of_order} out of order"
        lines.append(
            f"test {result.test_id} from {host}:{port}: {direction} ({arrow}), "
            f"{counted(total.streams, 'stream')}, "
            f"{here / 1e6:.1f} MB in {secs or 0:.2f} s = {mbps:.1f} Mbit/s{extra} "
            f"[{result.status}]"
        )
    if not result.sums:
        reason = f": {result.reason}" if result.reason else ""
        lines.append(f"test {result.test_id} from {host}:{port}: {result.status}{reason}")
    return lines
