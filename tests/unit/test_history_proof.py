"""Schema v5 (sbctune.history.proof): trial means and the Pi's state kept with a run, A/A
calibrations, and an older database migrated without losing what it had."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from sbctune.history import CURRENT_VERSION, History
from sbctune.history.proof import Calibration
from sbctune.history.records import RunRecord, TestRecord
from tests.unit.test_history import V1, _make_db

T0 = datetime(2026, 11, 23, 16, 0, tzinfo=timezone.utc)


def _run(device_id: int) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=737.2, trial_means=[736.0, 736.8, 738.8])
    return RunRecord(device_id, T0, "quick", nic="eth1", tests=[test],
                     pi_state={"mtu": "1500", "governor/policy0": "ondemand"})  # fmt: skip


def test_trials_and_state_survive_a_round_trip(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi.local", 22, "pi")
        assert device.id is not None
        run_id = history.save_run(_run(device.id))
        back = history.run(run_id)
        assert back.tests[0].trial_means == [736.0, 736.8, 738.8]
        assert back.pi_state == {"mtu": "1500", "governor/policy0": "ondemand"}
        back.tests[0].trial_means = [700.0, 710.0]  # saved again (a run completes): replaced
        history.save_run(back)
        assert history.run(run_id).tests[0].trial_means == [700.0, 710.0]


def test_the_newest_calibration_of_a_device_and_nic(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi.local", 22, "pi")
        assert device.id is not None
        ids = [history.save_run(_run(device.id)) for _ in range(4)]
        assert history.latest_calibration(device.id, "eth1") is None
        for a, b, spread in ((ids[0], ids[1], 9.0), (ids[2], ids[3], 4.0)):
            cal = Calibration(device.id, "eth1", a, b, T0, {"pi_to_pc/half": spread})
            history.save_calibration(cal)
        found = history.latest_calibration(device.id, "eth1")
        assert found is not None and found.spread_mbps == {"pi_to_pc/half": 4.0}
        assert history.latest_calibration(device.id, "eth0") is None  # another NIC
        history.delete_run(ids[3])  # its calibration goes with it
        found = history.latest_calibration(device.id, "eth1")
        assert found is not None and found.spread_mbps == {"pi_to_pc/half": 9.0}


def test_a_v1_database_migrates_to_v5_and_its_runs_have_no_trials(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _make_db(path, V1, version=1)
    with History.open(path) as history:
        (run,) = history.runs_for_device(1)
        assert run.tests[0].trial_means == [] and run.pi_state is None
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION == 5
    raw.close()
