"""Idle vs loaded round-trip times: percentiles, the added latency, and a verdict in words.

Grades follow DSLReports' bufferbloat grades (the convention Waveform's test and bufferbloat.net
use): the increase of the round-trip time while the link is fully used, A+ under 5 ms, A under
30, B under 60, C under 200, D under 400, F beyond (https://www.dslreports.com/faq/17930).
bufferbloat.net calls a link bloated above about 50 ms of it, "or a grade lower than B"
(https://www.bufferbloat.net/projects/bloat/wiki/Tests_for_Bufferbloat/). The added latency here
is the loaded median minus the idle median: medians, because one late probe must not make a
verdict; p95/p99 are reported next to it for the tail.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from sbctune.measure.latency.program import MAX_PROBES

MIN_SAMPLES = 5  # fewer answered probes in a phase: no verdict
# (upper bound of added ms, grade) in DSLReports' steps.
GRADES: tuple[tuple[float, str], ...] = (
    (5, "A+"), (30, "A"), (60, "B"), (200, "C"), (400, "D"), (math.inf, "F"),
)  # fmt: skip
BLOAT_MS = 60.0  # from grade C on: bufferbloat.net's "lower than B"

LOAD_WORDS = {
    "half/pi_to_pc": "upload from the Pi (Pi → PC)",
    "half/pc_to_pi": "download to the Pi (PC → Pi)",
    "full": "load both ways at once",
    "full_throttled": "load both ways at once, this PC's sending held back",
}
KEYS = tuple(LOAD_WORDS)


def group_key(mode: str, directions: tuple[str, ...]) -> str:
    return f"half/{directions[0]}" if mode == "half" else mode


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0..100), linear between order statistics (numpy's default)."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


@dataclass(frozen=True)
class RttStats:
    count: int
    lost: int
    p50: float | None
    p95: float | None
    p99: float | None

    @classmethod
    def of(cls, rtts: list[float], lost: int = 0) -> RttStats:
        return cls(len(rtts), lost, *(percentile(rtts, q) for q in (50, 95, 99)))

    @property
    def loss_pct(self) -> float:
        sent = self.count + self.lost
        return 100.0 * self.lost / sent if sent else 0.0

    def text(self) -> str:
        if self.p50 is None:
            return "no answers"
        lost = f", {self.loss_pct:.0f} % lost" if self.lost else ""
        return f"p50 {self.p50:.1f} / p95 {self.p95:.1f} / p99 {self.p99:.1f} ms{lost}"

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "lost": self.lost, "p50_ms": self.p50,
                "p95_ms": self.p95, "p99_ms": self.p99}  # fmt: skip


@dataclass(frozen=True)
class LatencyResult:
    key: str  # "half/pi_to_pc", "half/pc_to_pi", "full", "full_throttled"
    idle: RttStats
    loaded: RttStats

    @property
    def added_ms(self) -> float | None:
        if self.idle.count < MIN_SAMPLES or self.loaded.count < MIN_SAMPLES:
            return None
        assert self.idle.p50 is not None and self.loaded.p50 is not None
        return max(0.0, self.loaded.p50 - self.idle.p50)

    @property
    def grade(self) -> str | None:
        added = self.added_ms
        if added is None:
            return "F" if self._mostly_lost else None
        return next(g for top, g in GRADES if added < top)

    @property
    def _mostly_lost(self) -> bool:
        return self.idle.count >= MIN_SAMPLES and self.loaded.loss_pct > 50

    @property
    def bloated(self) -> bool:
        added = self.added_ms
        return self._mostly_lost or (added is not None and added >= BLOAT_MS)

    def verdict(self) -> str:
        load = LOAD_WORDS.get(self.key, self.key)
        added = self.added_ms
        if added is None:
            if self._mostly_lost:
                return (
                    f"under {load}, {self.loaded.loss_pct:.0f} % of the probes got no "
                    "answer within 2 s: the link holds or drops them: bufferbloat"
                )
            return f"not enough probes answered to tell the latency under {load}"
        tail = f", 1 probe in 20 over {self.loaded.p95:.0f} ms"  # the 95th percentile, in words
        if added < 5:
            return f"no added latency to speak of under {load} (+{added:.1f} ms)"
        if added < 30:
            return f"the link queues {added:.0f} ms under {load}{tail}: mild"
        if added < BLOAT_MS:
            return f"the link queues {added:.0f} ms under {load}{tail}: noticeable for calls"
        return f"the link queues {added:.0f} ms under {load}{tail}: bufferbloat"

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "idle": self.idle.to_json(),
            "loaded": self.loaded.to_json(),
            "added_ms": self.added_ms,
            "grade": self.grade,
            "verdict": self.verdict(),
        }


def _floats(value: Any) -> list[float]:
    if not isinstance(value, list):
        return []
    out = [float(v) for v in value[:MAX_PROBES] if isinstance(v, (int, float))]
    return [v for v in out if math.isfinite(v) and v >= 0]


def _count(value: Any) -> int:
    return int(value) if isinstance(value, int) and 0 <= value <= MAX_PROBES else 0


def results(latency: dict[str, Any] | None) -> list[LatencyResult]:
    """The stored record of a run (`MeasureRun.latency`) as results, in KEYS order; a damaged or
    missing record gives what it can (stored data is read like untrusted input)."""
    groups = latency.get("groups") if isinstance(latency, dict) else None
    if not isinstance(groups, dict):
        return []
    out = []
    for key in KEYS:
        group = groups.get(key)
        if not isinstance(group, dict):
            continue
        idle = RttStats.of(_floats(group.get("idle_ms")), _count(group.get("idle_lost")))
        loaded = RttStats.of(_floats(group.get("loaded_ms")), _count(group.get("loaded_lost")))
        out.append(LatencyResult(key, idle, loaded))
    return out


def trial_added(latency: dict[str, Any] | None, key: str) -> list[float]:
    """Each trial's added latency under one kind of load (ms), as the run stored them."""
    groups = latency.get("groups") if isinstance(latency, dict) else None
    group = groups.get(key) if isinstance(groups, dict) else None
    return _floats(group.get("trial_added_ms")) if isinstance(group, dict) else []


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None
