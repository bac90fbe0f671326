"""Live reading of the iperf3 client's output: `--forceflush` text (iperf3 < 3.17) and
`--json-stream` lines (3.17 and later), into one shape of interval and summary records.

The client runs on the Pi, so "TX" (client sends) is Pi→PC and "RX" is PC→Pi.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

Direction = Literal["pi_to_pc", "pc_to_pi"]

_UNITS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_BYTE_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
_LINE = re.compile(
    r"^\[\s*(?P<id>\d+|SUM)\](?:\[(?P<role>[TR]X-[CS])\])?\s+"
    r"(?P<start>\d+(?:\.\d+)?)-(?P<end>\d+(?:\.\d+)?)\s+sec\s+"
    r"(?P<bytes>\d+(?:\.\d+)?)\s+(?P<bunit>[KMGT]?)Bytes\s+"
    r"(?P<rate>\d+(?:\.\d+)?)\s+(?P<runit>[KMGT]?)bits/sec"
    r"(?:\s+(?P<retr>\d+))?(?P<rest>.*)$"
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


def _direction(role: str | None, reverse: bool) -> Direction:
    if role is None:
        return "pc_to_pi" if reverse else "pi_to_pc"
    return "pi_to_pc" if role.startswith("TX") else "pc_to_pi"


def parse_text_line(line: str, *, reverse: bool = False) -> Record | None:
    """One line of `iperf3 -c … --forceflush` output, or None if it is not a figure line."""
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
    return Record(
        stream=stream,
        direction=_direction(match.group("role"), reverse),
        start=float(match.group("start")),
        end=float(match.group("end")),
        bytes=int(float(match.group("bytes")) * _BYTE_UNITS[match.group("bunit")]),
        mbps=float(match.group("rate")) * _UNITS[match.group("runit")] / 1e6,
        retransmits=int(retr) if retr is not None else None,
        omitted="(omitted)" in rest,
        summary=summary,
    )


def _from_json_sum(data: dict[str, object], direction: Direction, summary: str | None) -> Record:
    def number(key: str) -> float:
        value = data.get(key, 0)
        return float(value) if isinstance(value, int | float) else 0.0

    retr = data.get("retransmits")
    return Record(
        stream=None,
        direction=direction,
        start=number("start"),
        end=number("end"),
        bytes=int(number("bytes")),
        mbps=number("bits_per_second") / 1e6,
        retransmits=int(retr) if isinstance(retr, int) else None,
        omitted=bool(data.get("omitted", False)),
        summary="sender" if summary == "sender" else "receiver" if summary else None,
    )


def parse_json_stream_line(line: str, *, reverse: bool = False) -> list[Record]:
    """One `--json-stream` event: interval sums, or the final sender/receiver sums."""
    try:
        event = json.loads(line)
    except ValueError:
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
        for key, direction, summary in (
            ("sum_sent", forward, "sender"),
            ("sum_received", forward, "receiver"),
            ("sum_sent_bidir_reverse", backward, "sender"),
            ("sum_received_bidir_reverse", backward, "receiver"),
        ):
            if isinstance(data.get(key), dict):
                records.append(_from_json_sum(data[key], direction, summary))
    return records


_ERROR = re.compile(r"iperf3: error - (?P<msg>.*)$")


def parse_error(line: str) -> str | None:
    """The message of an `iperf3: error - …` line (text mode), if this is one."""
    match = _ERROR.search(line)
    if match:
        return match.group("msg").strip()
    if line.lstrip().startswith("{"):
        try:
            event = json.loads(line)
        except ValueError:
            return None
        if isinstance(event, dict) and event.get("event") == "error":
            return str(event.get("data", "error"))
    return None
