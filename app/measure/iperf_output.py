"""Live reading of the iperf3 client's output: `--forceflush` text (iperf3 < 3.17) and
`--json-stream` lines (3.17 and later), into one shape of interval and summary records; and
the whole `-J` document (any version).

UDP tests (`-u`) carry the receiver's figures in the summaries: jitter (ms), datagrams lost of
those sent, and (where the client received) datagrams out of order. In text, the number after
the bit rate of a UDP interval line is the datagram count, not retransmissions.

The client runs on the Pi, so "TX" (client sends) is Pi→PC and "RX" is PC→Pi.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Literal

from sbctune.limits import parse_json

Direction = Literal["pi_to_pc", "pc_to_pi"]

_UNITS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_BYTE_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
_LINE = re.compile(
    r"^\[\s*(?P<id>\d+|SUM)\](?:\[(?P<role>[TR]X-[CS])\])?\s+"
    r"(?P<start>\d+(?:\.\d+)?)-(?P<end>\d+(?:\.\d+)?)\s+sec\s+"
    r"(?P<bytes>\d+(?:\.\d+)?)\s+(?P<bunit>[KMGT]?)Bytes\s+"
    r"(?P<rate>\d+(?:\.\d+)?)\s+(?P<runit>[KMGT]?)bits/sec"
    r"(?:\s+(?P<jitter>\d+(?:\.\d+)?)\s+ms\s+(?P<lost>-?\d+)/(?P<total>\d+)\s+\([^)]*\)"
    r"|\s+(?P<retr>\d+))?(?P<rest>.*)$"
)
_OUT_OF_ORDER = re.compile(
    r"^\[\s*(?:\d+|SUM)\](?:\[(?P<role>[TR]X-[CS])\])?\s+[\d.]+-\s*[\d.]+\s+sec\s+"
    r"(?P<count>\d+) datagrams received out-of-order"
)


@dataclass(frozen=True)
class Record:
    """One interval (or, with `summary` set, a final sum) of one stream or of the sum."""

    stream: int | None  # None for the [SUM] line
    direction: Direction
    start: float
    end: float
    bytes: int
    mbps: float
    retransmits: int | None
    omitted: bool = False
    summary: Literal["sender", "receiver"] | None = None
    # UDP only (None for TCP): the receiver's figures on a summary (jitter 0 on "sender").
    jitter_ms: float | None = None
    lost: int | None = None
    packets: int | None = None
    out_of_order: int | None = None

    @property
    def lost_percent(self) -> float | None:
        if self.lost is None or not self.packets:
            return None
        return 100.0 * self.lost / self.packets


def _direction(role: str | None, reverse: bool) -> Direction:
    if role is None:
        return "pc_to_pi" if reverse else "pi_to_pc"
    return "pi_to_pc" if role.startswith("TX") else "pc_to_pi"


def parse_text_line(line: str, *, reverse: bool = False, udp: bool = False) -> Record | None:
    """One line of `iperf3 -c … --forceflush` output, or None if it is not a figure line.
    `udp`: the test is UDP, so a number after the rate counts datagrams, not retransmits."""
    match = _LINE.match(line.strip())
    if not match:
        return None
    rest = match.group("rest")
    summary: Literal["sender", "receiver"] | None = None
    if "sender" in rest:
        summary = "sender"
    elif "receiver" in rest:
        summary = "receiver"
    stream = None if match.group("id") == "SUM" else int(match.group("id"))
    retr = match.group("retr")
    jitter, lost, total = match.group("jitter", "lost", "total")
    return Record(
        stream=stream,
        direction=_direction(match.group("role"), reverse),
        start=float(match.group("start")),
        end=float(match.group("end")),
        bytes=int(float(match.group("bytes")) * _BYTE_UNITS[match.group("bunit")]),
        mbps=float(match.group("rate")) * _UNITS[match.group("runit")] / 1e6,
        retransmits=int(retr) if retr is not None and not udp else None,
        omitted="(omitted)" in rest,
        summary=summary,
        jitter_ms=float(jitter) if jitter is not None else None,
        lost=int(lost) if lost is not None else None,
        packets=int(total) if total is not None else (int(retr) if retr and udp else None),
    )


def parse_out_of_order(line: str, *, reverse: bool = False) -> tuple[Direction, int] | None:
    """iperf3's `… N datagrams received out-of-order` line (UDP, text): (direction, N)."""
    match = _OUT_OF_ORDER.match(line.strip())
    if not match:
        return None
    return _direction(match.group("role"), reverse), int(match.group("count"))


def _from_json_sum(data: dict[str, object], direction: Direction, summary: str | None) -> Record:
    def number(key: str) -> float:
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return 0.0
        return float(value) if math.isfinite(value) else 0.0

    def count(key: str) -> int | None:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return int(value) if math.isfinite(value) else None

    udp = "jitter_ms" in data
    return Record(
        stream=None,
        direction=direction,
        start=number("start"),
        end=number("end"),
        bytes=int(number("bytes")),
        mbps=number("bits_per_second") / 1e6,
        retransmits=count("retransmits"),
        omitted=bool(data.get("omitted", False)),
        summary="sender" if summary == "sender" else "receiver" if summary else None,
        jitter_ms=number("jitter_ms") if udp else None,
        lost=count("lost_packets") if udp else None,
        packets=count("packets") if udp else None,
        out_of_order=count("out_of_order") if udp else None,
    )


_END_SUMS = (
    ("sum_sent", False, "sender"),
    ("sum_received", False, "receiver"),
    ("sum_sent_bidir_reverse", True, "sender"),
    ("sum_received_bidir_reverse", True, "receiver"),
)


def _end_records(data: dict[str, object], reverse: bool) -> list[Record]:
    forward: Direction = "pc_to_pi" if reverse else "pi_to_pc"
    backward: Direction = "pi_to_pc" if reverse else "pc_to_pi"
    records: list[Record] = []
    for key, back, summary in _END_SUMS:
        item = data.get(key)
        if isinstance(item, dict):
            record = _from_json_sum(item, backward if back else forward, summary)
            client_received = back != reverse
            if record.jitter_ms is not None and summary == "receiver" and client_received:
                ooo = _streams_out_of_order(data.get("streams"))
                record = replace(record, out_of_order=ooo)
            records.append(record)
    return records


def _streams_out_of_order(streams: object) -> int | None:
    """The client's out-of-order count over its receiving UDP streams (`end.streams[].udp`).
    Only asked where the client received: the server's count is not in iperf3's results."""
    if not isinstance(streams, list):
        return None
    total, seen = 0, False
    for item in streams:
        udp = item.get("udp") if isinstance(item, dict) else None
        if not isinstance(udp, dict) or udp.get("sender") is not False:
            continue
        value = udp.get("out_of_order")
        if isinstance(value, int) and not isinstance(value, bool):
            total, seen = total + value, True
    return total if seen else None


def parse_json_output(text: str, *, reverse: bool = False) -> tuple[list[Record], list[str]]:
    """The final sender/receiver sums of a whole `iperf3 -c … -J` document, and warnings for
    what could not be read (not JSON, an error document, no `end` sums)."""
    try:
        doc = parse_json(text)
    except (ValueError, RecursionError):
        return [], ["iperf3 -J output: not a JSON document"]
    if not isinstance(doc, dict):
        return [], ["iperf3 -J output: not a JSON object"]
    if isinstance(doc.get("error"), str):
        return [], [f"iperf3 -J output: the test failed: {doc['error'][:200]}"]
    end = doc.get("end")
    records = _end_records(end, reverse) if isinstance(end, dict) else []
    return records, [] if records else ["iperf3 -J output: no final sums"]


def parse_json_stream_line(line: str, *, reverse: bool = False) -> list[Record]:
    """One `--json-stream` event: interval sums, or the final sender/receiver sums."""
    try:
        event = parse_json(line)
    except (ValueError, RecursionError):
        return []
    if not isinstance(event, dict) or not isinstance(event.get("data"), dict):
        return []
    data = event["data"]
    forward: Direction = "pc_to_pi" if reverse else "pi_to_pc"
    backward: Direction = "pi_to_pc" if reverse else "pc_to_pi"
    records: list[Record] = []
    if event.get("event") == "interval":
        for key, direction in (("sum", forward), ("sum_bidir_reverse", backward)):
            if isinstance(data.get(key), dict):
                records.append(_from_json_sum(data[key], direction, None))
    elif event.get("event") == "end":
        records = _end_records(data, reverse)
    return records


_ERROR = re.compile(r"iperf3: error - (?P<msg>.*)$")


def parse_error(line: str) -> str | None:
    """The message of an `iperf3: error - …` line (text mode), if this is one."""
    match = _ERROR.search(line)
    if match:
        return match.group("msg").strip()
    if line.lstrip().startswith("{"):
        try:
            event = parse_json(line)
        except ValueError:
            return None
        if isinstance(event, dict) and event.get("event") == "error":
            return str(event.get("data", "error"))
    return None
