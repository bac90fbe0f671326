"""A/A calibration: two stored runs with nothing changed give the run-to-run spread that
compare (as its floor) and advice (as a note) use from then on."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.compare import compare
from sbctune.compare.calibration import (
    calibrate,
    calibration_for,
    calibration_note,
    report_lines,
)
from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord
from tests.unit.export.seed_runs import START

# The recorded lab A/A pair of tests/unit/test_compare_interval.py (pi4-ax88179, quick plan).
A = {"pi_to_pc": [736.0, 736.8, 738.8], "pc_to_pi": [944.6, 936.2, 891.2]}
B = {"pi_to_pc": [741.2, 733.8, 731.0], "pc_to_pi": [946.8, 946.4, 946.6]}


def _run(device_id: int, trials: dict[str, list[float]]) -> RunRecord:
    tests = [
        TestRecord(d, "half", mean_mbps=sum(t) / len(t), trial_means=t)  # type: ignore[arg-type]
        for d, t in trials.items()
    ]
    return RunRecord(device_id, START, "quick", nic="eth1", tests=tests)


def test_calibration_is_kept_and_used_by_compare_and_advice(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi.local", 22, "pi")
        assert device.id is not None
        first, second = _run(device.id, A), _run(device.id, B)
        history.save_run(first)
        history.save_run(second)
        assert calibration_for(history, [first]) == {}
        assert calibration_note(history, [first]) is None
        cal = calibrate(history, first, second)
        assert cal.spread_mbps["pc_to_pi/half"] == pytest.approx(946.6 - 924.0)
        spreads = calibration_for(history, [first])
        assert spreads == cal.spread_mbps
        note = calibration_note(history, [first])
        assert note is not None and "PC → Pi one way 23 Mbit/s" in note
    lines = report_lines(first, second)
    assert lines[0].startswith("Pi → PC, One way: 737 then 735 Mbit/s, run-to-run spread 2")
    assert "no change detected" in lines[1]
    # A +20 Mbit/s "gain" on PC → Pi is inside this Pi's spread: not called a change.
    gain = _run(1, {"pc_to_pi": [944.0, 945.0, 946.0]})
    base = _run(1, {"pc_to_pi": [924.0, 925.0, 926.0]})
    row = compare([base, gain]).row("pc_to_pi", "half")
    assert row is not None and row.cells[1].verdict == "faster"
    row = compare([base, gain], spreads).row("pc_to_pi", "half")
    assert row is not None and row.cells[1].verdict == "no_change"
