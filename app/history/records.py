"""What the history keeps, as plain dataclasses (the store maps them to and from rows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Direction = Literal["pi_to_pc", "pc_to_pi"]
Mode = Literal["half", "full", "full_throttled"]
DIRECTIONS: tuple[Direction, ...] = ("pi_to_pc", "pc_to_pi")
MODES: tuple[Mode, ...] = ("half", "full", "full_throttled")


@dataclass
class DeviceRecord:
    """A Pi, known by how it was reached (host, port, user)."""

    host: str
    port: int
    user: str
    first_seen: datetime
    last_seen: datetime
    name: str | None = None  # what the user calls it, or the board model
    last_inventory_id: int | None = None
    id: int | None = None


@dataclass
class Interval:
    """One live reading of a test: seconds since its start, goodput, retransmits so far."""

    t: float
    mbps: float
    retransmits: int | None = None


@dataclass
class TogetherRecord:
    """One NIC's figure of an aggregate over the time every NIC ran (sbctune.measure.together),
    kept in the run's proof JSON; runs stored before it read None and add each NIC's mean."""

    mbps: float | None  # this NIC's mean over the common window; None: no total (see note)
    seconds: float  # how long every NIC ran together
    longest_s: float  # how long the longest-running NIC ran
    note: str | None = None  # what the CLI printed under the Total row, if anything


@dataclass
class TestRecord:
    """One direction of one test (a full-duplex test gives two, one per direction)."""

    __test__ = False  # not a pytest test class, despite the name

    direction: Direction
    mode: Mode
    mean_mbps: float | None = None
    min_mbps: float | None = None
    max_mbps: float | None = None
    stdev_mbps: float | None = None
    sender_mbps: float | None = None
    receiver_mbps: float | None = None
    retransmits: int | None = None
    complete: bool = True
    intervals: list[Interval] = field(default_factory=list)
    pi_cpu: dict[str, Any] | None = None  # the Pi sampler's summary over the test
    id: int | None = None
    trial_means: list[float] = field(default_factory=list)  # each trial's mean (schema v5)
    together: TogetherRecord | None = None  # NICs measured at once: the time all of them ran


@dataclass
class UdpRecord:
    """A run's UDP test in one direction: the receiver's figures (kept in the run's proof
    JSON, so runs from before UDP tests simply have none)."""

    direction: Direction
    target_mbps: float | None = None
    receiver_mbps: float | None = None
    jitter_ms: float | None = None
    lost: int | None = None
    packets: int | None = None
    lost_percent: float | None = None
    out_of_order: int | None = None
    complete: bool = False


@dataclass
class RunRecord:
    """One measurement run (a plan's tests, in order) on one device."""

    device_id: int
    started_at: datetime
    plan_name: str
    finished_at: datetime | None = None
    plan: dict[str, Any] | None = None
    nic: str | None = None
    endpoint_kind: str | None = None  # "system" iperf3 or the "builtin" endpoint
    iperf3_pi_version: str | None = None
    iperf3_pc_version: str | None = None
    tuning_state: dict[str, Any] | None = None  # the tweaks in force while measuring
    inventory_id: int | None = None
    complete: bool = False
    note: str = ""
    tests: list[TestRecord] = field(default_factory=list)
    id: int | None = None
    # Runs measured at the same time on several NICs of the device (seed 004) share this id;
    # each such run holds one NIC's figures while the others carried traffic too.
    aggregate_id: str | None = None
    route_warning: str | None = None  # set when the test traffic left through another NIC
    # The Pi's settings while it ran, "group/name" -> value (sbctune.workflow.pi_state; schema
    # v5, sbctune.history.proof). The inventory it ran on is `inventory_id`.
    pi_state: dict[str, str] | None = None
    # Latency probes' round trips, idle and loaded per test kind (sbctune.measure.latency;
    # kept in the v5 run_proof JSON, so older runs read None).
    latency: dict[str, Any] | None = None
    udp: list[UdpRecord] = field(default_factory=list)  # UDP tests (`measure --udp`), if any


@dataclass
class TuningSessionRecord:
    """A tuning session as the tuning package describes it (its details stay its own JSON)."""

    device_id: int
    started_at: datetime
    state: str
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
