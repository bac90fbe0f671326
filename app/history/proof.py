"""What a run keeps to prove itself (schema v5): each trial's mean per test, the Pi's state
it ran under, its UDP tests' figures, and A/A calibrations (two runs with nothing changed
between them).

Kept apart from the store's own tables and code so that the run and test rows stay as they
were; the store calls `save_run_proof` and `load_run_proof` inside its own transactions.
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Any

from sbctune.history.records import DIRECTIONS, RunRecord, TogetherRecord, UdpRecord
from sbctune.limits import parse_json

# v5 of the schema (appended to sbctune.history.schema.MIGRATIONS).
MIGRATION_V5 = (
    """CREATE TABLE run_proof (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        json TEXT NOT NULL
    )""",
    """CREATE TABLE calibrations (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        taken_at TEXT NOT NULL,
        nic TEXT,
        run_a INTEGER REFERENCES runs(id) ON DELETE CASCADE,
        run_b INTEGER REFERENCES runs(id) ON DELETE CASCADE,
        json TEXT NOT NULL
    )""",
    "CREATE INDEX calibrations_by_device ON calibrations (device_id, taken_at)",
)

_MAX_TRIALS = 1000  # a damaged row must not make a list of millions


def save_run_proof(conn: sqlite3.Connection, run_id: int, run: RunRecord) -> None:
    data: dict[str, Any] = {"trials": [list(t.trial_means) for t in run.tests]}
    if run.pi_state is not None:
        data["pi_state"] = run.pi_state
    if run.latency is not None:  # latency probes' round trips (no schema change: runs without
        data["latency"] = run.latency  # it, older ones included, read as None)
    if run.udp:  # UDP tests' figures: a key older readers skip, older runs lack
        data["udp"] = [asdict(u) for u in run.udp]
    if any(t.together is not None for t in run.tests):  # an aggregate's figures over the
        # time every NIC ran, per test (runs stored before them lack the key: None)
        data["together"] = [asdict(t.together) if t.together else None for t in run.tests]
    conn.execute(
        "INSERT OR REPLACE INTO run_proof (run_id, json) VALUES (?, ?)",
        (run_id, json.dumps(data, sort_keys=True)),
    )


def _floats(value: Any) -> list[float]:
    if not isinstance(value, list):
        return []
    return [float(v) for v in value[:_MAX_TRIALS] if isinstance(v, int | float)]


def load_run_proof(conn: sqlite3.Connection, run: RunRecord) -> None:
    """Fill in the run's trial means and Pi state (absent for runs older than v5)."""
    row = conn.execute("SELECT json FROM run_proof WHERE run_id = ?", (run.id,)).fetchone()
    if row is None:
        return
    try:
        data = parse_json(row[0], "a run's proof")
    except ValueError:
        return
    if not isinstance(data, dict):
        return
    trials = data.get("trials")
    if isinstance(trials, list):
        for test, means in zip(run.tests, trials, strict=False):
            test.trial_means = _floats(means)
    state = data.get("pi_state")
    if isinstance(state, dict):
        run.pi_state = {str(k): str(v) for k, v in state.items()}
    latency = data.get("latency")  # read with bounds by sbctune.measure.latency.stats.results
    if isinstance(latency, dict):
        run.latency = latency
    udp = data.get("udp")
    if isinstance(udp, list):
        run.udp = [u for u in map(_udp_record, udp[:_MAX_UDP]) if u is not None]
    together = data.get("together")
    if isinstance(together, list):
        for test, item in zip(run.tests, together, strict=False):
            test.together = _together_record(item)


_MAX_UDP = 16


def _udp_record(item: Any) -> UdpRecord | None:
    """One stored UDP test; a damaged entry is left out rather than failing the run."""
    if not isinstance(item, dict) or item.get("direction") not in DIRECTIONS:
        return None

    def num(key: str) -> float | None:
        value = item.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value) if math.isfinite(value) else None

    def count(key: str) -> int | None:
        value = num(key)
        return int(value) if value is not None else None

    return UdpRecord(
        direction=item["direction"],
        target_mbps=num("target_mbps"),
        receiver_mbps=num("receiver_mbps"),
        jitter_ms=num("jitter_ms"),
        lost=count("lost"),
        packets=count("packets"),
        lost_percent=num("lost_percent"),
        out_of_order=count("out_of_order"),
        complete=item.get("complete") is True,
    )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _together_record(item: Any) -> TogetherRecord | None:
    """One stored together figure; a damaged one reads None (the run adds its mean, as before)."""
    if not isinstance(item, dict):
        return None
    seconds, longest = _number(item.get("seconds")), _number(item.get("longest_s"))
    if seconds is None or longest is None:
        return None
    note = item.get("note")
    return TogetherRecord(
        _number(item.get("mbps")), seconds, longest, note[:500] if isinstance(note, str) else None
    )


@dataclass(frozen=True)
class Calibration:
    """Two runs with nothing changed between them, and how far apart they came out."""

    device_id: int
    nic: str | None
    run_a: int
    run_b: int
    taken_at: datetime
    # "direction/mode" -> |difference of the two runs' means| in Mbit/s
    spread_mbps: dict[str, float]
    id: int | None = None


def save_calibration(conn: sqlite3.Connection, cal: Calibration) -> int:
    cursor = conn.execute(
        "INSERT INTO calibrations (device_id, taken_at, nic, run_a, run_b, json) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            cal.device_id,
            cal.taken_at.astimezone(timezone.utc).isoformat(),
            cal.nic,
            cal.run_a,
            cal.run_b,
            json.dumps({"spread_mbps": cal.spread_mbps}, sort_keys=True),
        ),
    )
    return int(cursor.lastrowid or 0)


def latest_calibration(
    conn: sqlite3.Connection, device_id: int, nic: str | None
) -> Calibration | None:
    """The newest A/A calibration of this device (and NIC, when one is given)."""
    row = conn.execute(
        "SELECT id, device_id, taken_at, nic, run_a, run_b, json FROM calibrations "
        "WHERE device_id = ? AND (? IS NULL OR nic IS NULL OR nic = ?) "
        "ORDER BY taken_at DESC, id DESC LIMIT 1",
        (device_id, nic, nic),
    ).fetchone()
    if row is None:
        return None
    try:
        spread = parse_json(row[6], "a calibration").get("spread_mbps") or {}
        cleaned = {str(k): float(v) for k, v in spread.items() if isinstance(v, int | float)}
        taken = datetime.fromisoformat(row[2])
    except (ValueError, AttributeError, TypeError):
        return None
    return Calibration(row[1], row[3], row[4], row[5], taken, cleaned, id=row[0])
