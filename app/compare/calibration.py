"""A/A calibration: two runs with nothing changed between them show how far apart identical
runs come out on this Pi and network. compare and advice use the newest one as the floor a
change must clear (sbctune.compare.interval)."""

from __future__ import annotations

from datetime import datetime, timezone

from sbctune.compare.compare import compare, spread_key
from sbctune.history import History
from sbctune.history.proof import Calibration
from sbctune.history.records import RunRecord
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL, MODE_WORDS


def spreads(first: RunRecord, second: RunRecord) -> dict[str, float]:
    """Per "direction/mode" measured in both: |difference of the two runs' means| (Mbit/s)."""
    out = {}
    for row in compare([first, second]).rows:
        a, b = row.cells
        if a.mbps is not None and b.mbps is not None:
            out[spread_key(row.direction, row.mode)] = abs(b.mbps - a.mbps)
    return out


def calibrate(history: History, first: RunRecord, second: RunRecord) -> Calibration:
    """Store the pair as this device's newest A/A calibration."""
    assert first.id is not None and second.id is not None
    cal = Calibration(
        first.device_id,
        first.nic,
        first.id,
        second.id,
        datetime.now(timezone.utc),
        spreads(first, second),
    )
    history.save_calibration(cal)
    return cal


def calibration_for(history: History, runs: list[RunRecord]) -> dict[str, float]:
    """The newest A/A spreads for the first run's device and NIC ({} when there is none)."""
    if not runs:
        return {}
    found = history.latest_calibration(runs[0].device_id, runs[0].nic)
    return dict(found.spread_mbps) if found else {}


def report_lines(first: RunRecord, second: RunRecord) -> list[str]:
    """What the user reads after `measure --repeat 2`: per direction, the run-to-run spread and
    whether the method called the two (identical) runs different."""
    lines = []
    for row in compare([first, second]).rows:
        a, b = row.cells
        if a.mbps is None or b.mbps is None:
            continue
        diff = b.mbps - a.mbps
        pct = f" ({abs(diff) / a.mbps * 100:.1f} %)" if a.mbps else ""
        lines.append(
            f"{DIRECTION_LABEL[row.direction]}, {MODE_LABEL[row.mode]}: {a.mbps:.0f} then "
            f"{b.mbps:.0f} Mbit/s, run-to-run spread {abs(diff):.0f} Mbit/s{pct}; "
            f"{b.verdict_text}"
        )
    return lines


def calibration_note(history: History, runs: list[RunRecord]) -> str | None:
    """For advice: this Pi's run-to-run spread, so figures closer than it read as the same."""
    if not runs:
        return None
    found = history.latest_calibration(runs[0].device_id, runs[0].nic)
    if found is None or not found.spread_mbps:
        return None
    parts = []
    for key, spread in sorted(found.spread_mbps.items()):
        direction, _, mode = key.partition("/")
        label = DIRECTION_LABEL.get(direction)  # type: ignore[call-overload]
        mode_label = MODE_WORDS.get(mode)  # type: ignore[call-overload]
        if label and mode_label:
            parts.append(f"{label} {mode_label} {spread:.0f} Mbit/s")
    return (
        f"Run-to-run spread on this Pi (A/A calibration, runs {found.run_a} and {found.run_b}): "
        + ", ".join(parts)
        + "; figures closer than that are the same."
    )
