"""What a measurement produced: per direction and mode, the figures and the live intervals."""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any

from sbctune.measure.iperf_output import Direction, Record
from sbctune.measure.plans import Mode


@dataclass
class Interval:
    t: float  # seconds since the test started, at the interval's end (omitted time included)
    mbps: float
    retransmits: int | None = None
    omitted: bool = False


@dataclass
class DirectionOutcome:
    direction: Direction
    mode: Mode
    mean_mbps: float | None = None  # over the non-omitted intervals
    min_mbps: float | None = None
    max_mbps: float | None = None
    stdev_mbps: float | None = None
    sender_mbps: float | None = None
    receiver_mbps: float | None = None
    retransmits: int | None = None
    complete: bool = False
    intervals: list[Interval] = field(default_factory=list)
    error: str | None = None
    test_index: int = 0  # which test of the plan (keys MeasureRun.pi_cpu)
    # Each complete trial's mean, in the order they ran (sbctune.measure.trials folds them).
    trial_means: list[float] = field(default_factory=list)
    # UDP tests only: the receiver's figures (iperf3's, after -O). Out of order is known only
    # where the Pi received (PC → Pi): iperf3's results do not carry the server's count.
    protocol: str = "tcp"
    udp_target_mbps: float | None = None
    jitter_ms: float | None = None
    lost: int | None = None
    packets: int | None = None
    lost_percent: float | None = None
    out_of_order: int | None = None
    # A TCP trial whose data stopped and came back inside it (`data_gap`): a link that went
    # down and up, not a measure of the NIC; left out of the figures, another trial runs.
    gap: str | None = None
    # This PC's monotonic clock at the trial's t = 0 (PlanTest: each interval line's arrival
    # less its t, the smallest kept), which lines up NICs measured at once
    # (sbctune.measure.together). Meaningless outside this process: never stored or exported.
    clock_zero: float | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["clock_zero"]
        if data["gap"] is None:  # the stored shape of a run without one, as before
            del data["gap"]
        data["intervals"] = [
            {"t": i.t, "mbps": i.mbps, "retransmits": i.retransmits, "omitted": i.omitted}
            for i in self.intervals
        ]
        return data


def to_intervals(records: list[Record], omit: int) -> list[Interval]:
    """iperf3 restarts its clock after the omitted seconds; put every interval on one axis."""
    out = []
    for record in records:
        offset = 0.0 if record.omitted else float(omit)
        out.append(
            Interval(round(record.end + offset, 3), record.mbps, record.retransmits, record.omitted)
        )
    return out


STALLED_SHARE = 0.01  # an interval under 1 % of the trial's median moved (next to) no data


def data_gap(intervals: list[Interval]) -> str | None:
    """Why a trial is not a measure of the NIC, or None: its data stopped (intervals under
    `STALLED_SHARE` of its median) and came back inside it. walk19: a 2 s link drop on a Pi 4,
    shorter than the 3 s a lost link takes (pi_client.STALL_INTERVALS), let a 578 Mbit/s trial
    count, and the run was then called too noisy."""
    counted = [i for i in intervals if not i.omitted]
    if len(counted) < 3:
        return None
    median = statistics.median(i.mbps for i in counted)
    low = [n for n, i in enumerate(counted) if i.mbps < median * STALLED_SHARE]
    inside = [n for n in low if 0 < n < len(counted) - 1]
    if median <= 0 or not inside or all(n in low for n in range(inside[0], len(counted))):
        return None  # none, or it never came back: a lost link, which the run itself reports
    # The time without data, the seconds either side counted by what they lacked (a link
    # dropped 2 s in the lab read 624, 0, 261 Mbit/s around a median of 925: about 2 s).
    lost = 0.0
    for n in range(max(1, inside[0] - 1), min(len(counted), inside[-1] + 2)):
        length = max(0.0, counted[n].t - counted[n - 1].t)
        lost += length * min(1.0, max(0.0, 1 - counted[n].mbps / median))
    if not math.isfinite(lost):  # bounded, whatever the intervals held
        return None
    return f"no data moved for about {max(1, round(lost))} s inside it (the link went down and up)"


def summarize(
    direction: Direction,
    mode: Mode,
    intervals: list[Interval],
    summaries: list[Record],
    *,
    complete: bool,
    error: str | None = None,
) -> DirectionOutcome:
    outcome = DirectionOutcome(direction, mode, intervals=intervals, complete=complete, error=error)
    counted = [i.mbps for i in intervals if not i.omitted]
    if counted:
        outcome.mean_mbps = statistics.fmean(counted)
        outcome.min_mbps = min(counted)
        outcome.max_mbps = max(counted)
        outcome.stdev_mbps = statistics.pstdev(counted) if len(counted) > 1 else 0.0
    for record in summaries:
        if record.direction != direction:
            continue
        if record.summary == "sender":
            outcome.sender_mbps = record.mbps
            outcome.retransmits = record.retransmits
        elif record.summary == "receiver":
            outcome.receiver_mbps = record.mbps
            if record.jitter_ms is not None:
                outcome.protocol = "udp"
                outcome.jitter_ms, outcome.lost = record.jitter_ms, record.lost
                outcome.packets, outcome.out_of_order = record.packets, record.out_of_order
                outcome.lost_percent = record.lost_percent
                if direction == "pc_to_pi" and outcome.out_of_order is None:
                    outcome.out_of_order = 0  # the Pi received; iperf3 prints only a count > 0
    if outcome.retransmits is None:
        retrans = [i.retransmits for i in intervals if i.retransmits is not None and not i.omitted]
        outcome.retransmits = sum(retrans) if retrans else None
    if outcome.protocol == "tcp":
        outcome.gap = data_gap(intervals)
    return outcome


@dataclass
class MeasureRun:
    host: str
    nic: str | None
    plan: str
    endpoint: str
    pc_address: str
    pi_address: str | None
    started: str
    finished: str | None = None
    iperf3_pi: str | None = None
    iperf3_pc: str | None = None
    tests: list[DirectionOutcome] = field(default_factory=list)
    pi_cpu: dict[str, Any] = field(default_factory=dict)
    route_warning: str | None = None
    complete: bool = False
    error: str | None = None  # why the run stopped early (link lost, cancelled), if it did
    run_id: int | None = None
    pi_state: dict[str, str] | None = None  # the Pi's settings as it started (workflow.pi_state)
    # The tested NIC's chip (or its driver's family) as Inspect names it, from the inventory
    # kept with the run (workflow.snapshot): the CLI's lines and table say it beside `nic`.
    nic_chip: str | None = None
    latency: dict[str, Any] | None = None  # probes' round trips (sbctune.measure.latency.during)
    udp: list[DirectionOutcome] = field(default_factory=list)  # the plan's UDP tests, if any
    # A tuning session's state and knobs as the sampler read them: {"first": {file: value},
    # "tests": {test index: {file: value}}} (PiSampler.note_watched); not exported.
    tuning_watch: dict[str, Any] = field(default_factory=dict)

    def outcome(self, direction: Direction, mode: Mode) -> DirectionOutcome | None:
        return next((t for t in self.tests if t.direction == direction and t.mode == mode), None)

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k not in ("tests", "udp", "tuning_watch")}
        data["tests"] = [t.to_json() for t in self.tests]
        data["udp"] = [t.to_json() for t in self.udp]
        return data


def split_udp(
    tests: list[DirectionOutcome],
) -> tuple[list[DirectionOutcome], list[DirectionOutcome]]:
    """(UDP tests, TCP tests): UDP figures stay apart from the TCP ones that trials, compare and
    advice fold by direction and mode."""
    return [t for t in tests if t.protocol == "udp"], [t for t in tests if t.protocol != "udp"]
