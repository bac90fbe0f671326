"""What several NICs carried TOGETHER: each direction's figures over the time every NIC ran.

NICs measured at once do not start at the same instant: each iperf3 client connects on its own,
and a SYN that the PC's listen queue dropped is retried a second later (on the lab host
`net.core.somaxconn` is 1: with four clients connecting at once, `TcpExtListenOverflows` and
`TCPSynRetrans` rose and those NICs started ~1.0 s late). While a NIC is missing the others
fill a shared bus, so adding each NIC's OWN mean read up to 6 % over the bus cap (3056-3242
against 3060). What the NICs carried together is taken over the window from the latest start to
the earliest end: whole intervals inside it, per NIC and in total.

Times are this PC's monotonic clock: a test's `clock_zero` is the arrival time of each of its
interval lines less the line's t, the smallest kept (a delay only makes a line later; iperf3's
own timestamps are whole seconds, too coarse to line NICs up), the test's final line left out
(sbctune.measure.plan_test says why).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sbctune.measure.outcome import Interval

#: An interval counts as inside the common window when it sticks out by at most this much:
#: lines reach this PC over SSH with some jitter, and intervals are whole seconds.
SLACK_S = 0.25


@dataclass(frozen=True)
class Timed:
    """One NIC's trial in one direction: its intervals and when its t = 0 was on this PC."""

    clock_zero: float | None
    intervals: Sequence[Interval]


@dataclass(frozen=True)
class Span:
    """One counted interval on this PC's clock."""

    start: float
    end: float
    mbps: float


@dataclass
class Window:
    """One direction's figures over the time every NIC ran (one trial, or trials folded)."""

    per_nic: dict[str, float | None]  # each NIC's mean over the common window
    seconds: float  # how long every NIC ran together
    longest_s: float  # the longest any NIC ran (the test as the user asked for it)
    late: dict[str, float] = field(default_factory=dict)  # NIC -> seconds it started late
    # NIC -> seconds it ran shorter than the longest (it stopped early, not merely late)
    short: dict[str, float] = field(default_factory=dict)
    why: str | None = None  # why there is no total, when there is none

    @property
    def total_mbps(self) -> float | None:
        values = list(self.per_nic.values())
        if self.why or not values or any(v is None for v in values):
            return None
        return sum(v for v in values if v is not None)

    def note(self, label: str) -> str | None:
        """The line under the Total row, or None when every NIC ran the whole time."""
        if self.why:
            return f"{label}: no total: {self.why}."
        if not self.late and not self.short:
            return None
        parts = [*_grouped(self.late, "started", "late"), *_grouped(self.short, "stopped", "early")]
        return (
            f"{label}: together for {self.seconds:.1f} s of {self.longest_s:.1f} s: "
            f"{'; '.join(parts)}; the total counts only that time."
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "together_per_nic": dict(self.per_nic),
            "together_s": round(self.seconds, 2),
            "longest_s": round(self.longest_s, 2),
            "late_s": {n: round(v, 2) for n, v in self.late.items()},
            "short_s": {n: round(v, 2) for n, v in self.short.items()},
            "why": self.why,
        }


def _grouped(lateness: Mapping[str, float], verb: str, word: str) -> list[str]:
    """NICs that missed the same time, named together: "eth2 and eth3 started 1.0 s late"."""
    by_text: dict[str, list[str]] = {}
    for nic, seconds in lateness.items():
        by_text.setdefault(f"{seconds:.1f} s", []).append(nic)
    return [f"{_names(nics)} {verb} {text} {word}" for text, nics in by_text.items()]


def _names(nics: list[str]) -> str:
    return nics[0] if len(nics) == 1 else ", ".join(nics[:-1]) + " and " + nics[-1]


def spans(timed: Timed) -> list[Span]:
    """The counted (not omitted) intervals on this PC's clock. An interval starts where the one
    before it ended (iperf3's -i 1: the first one at t - 1 s, never before the test's t = 0)."""
    if timed.clock_zero is None or not math.isfinite(timed.clock_zero):
        return []
    out: list[Span] = []
    previous: float | None = None
    for interval in sorted(timed.intervals, key=lambda i: i.t):
        if not (math.isfinite(interval.t) and math.isfinite(interval.mbps)):
            continue
        start = previous if previous is not None else max(0.0, interval.t - 1.0)
        previous = interval.t
        if not interval.omitted and interval.t > start:
            out.append(Span(timed.clock_zero + start, timed.clock_zero + interval.t, interval.mbps))
    return out


def _mean(inside: list[Span]) -> float | None:
    """Mbit/s over the intervals: what they carried over the time they cover."""
    seconds = sum(s.end - s.start for s in inside)
    return sum(s.mbps * (s.end - s.start) for s in inside) / seconds if seconds > 0 else None


def window(trial: Mapping[str, Timed]) -> Window:
    """The figures of one trial in one direction over the time all its NICs ran."""
    by_nic = {nic: spans(t) for nic, t in trial.items()}
    untimed = [nic for nic, s in by_nic.items() if not s]
    nones: dict[str, float | None] = {nic: None for nic in trial}
    if untimed:
        return Window(nones, 0.0, 0.0, why=f"{_names(untimed)} reported no timed intervals")
    starts = {nic: s[0].start for nic, s in by_nic.items()}
    ends = {nic: s[-1].end for nic, s in by_nic.items()}
    begin, finish = max(starts.values()), min(ends.values())
    longest = max(ends[n] - starts[n] for n in by_nic)
    first = min(starts.values())
    late = {n: s - first for n, s in starts.items() if s - first > SLACK_S}
    ran = {n: ends[n] - starts[n] for n in by_nic}
    short = {n: longest - r for n, r in ran.items() if longest - r > SLACK_S}
    if finish - begin <= SLACK_S:
        latest = max(starts, key=lambda n: starts[n])
        soonest = min(ends, key=lambda n: ends[n])
        never = f"{soonest} ended before {latest} started, so the NICs never ran together"
        return Window(nones, 0.0, longest, late, short, never)
    per_nic: dict[str, float | None] = {}
    for nic, nic_spans in by_nic.items():
        inside = [s for s in nic_spans if s.start >= begin - SLACK_S and s.end <= finish + SLACK_S]
        per_nic[nic] = _mean(inside)
    missing = [n for n, v in per_nic.items() if v is None]
    why: str | None = None
    if missing:
        why = (
            f"{_names(missing)} had no whole interval inside the {finish - begin:.1f} s "
            "all NICs ran together"
        )
    return Window(per_nic, finish - begin, longest, late, short, why)


def fold(windows: Sequence[Window]) -> Window | None:
    """Trials of one direction and mode as one figure: each NIC's together means weighted by
    how long the trial ran together (the trials that had no common window add nothing)."""
    if not windows:
        return None
    usable = [w for w in windows if w.total_mbps is not None and w.seconds > 0]
    if not usable:
        return windows[0]
    if len(usable) == 1 and len(windows) == 1:
        return usable[0]
    seconds = sum(w.seconds for w in usable)
    per_nic: dict[str, float | None] = {
        nic: sum((w.per_nic[nic] or 0.0) * w.seconds for w in usable) / seconds
        for nic in usable[0].per_nic
    }
    late: dict[str, float] = {}
    short: dict[str, float] = {}
    for w in windows:  # the worst of the trials: what the note has to say
        for nic, s in w.late.items():
            late[nic] = max(late.get(nic, 0.0), s)
        for nic, s in w.short.items():
            short[nic] = max(short.get(nic, 0.0), s)
    longest = sum(w.longest_s for w in usable)
    return Window(per_nic, seconds, longest, late, short)


def live_key(clock_zero: float | None, interval: Interval) -> float | None:
    """When this interval ended on this PC's clock (None without a clock): what the live
    total lines NICs' seconds up by."""
    if clock_zero is None or not math.isfinite(clock_zero + interval.t):
        return None
    return clock_zero + interval.t
