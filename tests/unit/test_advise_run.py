"""`sbctune advise RUN` judges a run with the tweaks that were in force while it ran."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sbctune.cli.advise_cmd import _from_run
from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord, TuningSessionRecord


def _run(device_id: int, minutes: int, state: dict[str, object] | None) -> RunRecord:
    # Seed 000's ax88179 figures at 1500 MHz (its results table).
    return RunRecord(
        device_id=device_id,
        started_at=dt.datetime(2026, 11, 1, 12, minutes, tzinfo=dt.timezone.utc),
        plan_name="quick",
        nic="eth1",
        complete=True,
        tuning_state=state,
        tests=[TestRecord("pi_to_pc", "half", 736.0), TestRecord("pc_to_pi", "half", 949.0)],
    )


def test_a_run_before_tuning_is_not_judged_with_later_tweaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    with History.open() as history:
        device = history.add_device("198.18.0.2", 22, "pi")
        assert device.id is not None
        before = history.save_run(_run(device.id, 0, None))
        data = {"tweaks": [{"id": "rps-rfs", "status": "applied"}]}
        history.save_tuning_session(
            TuningSessionRecord(device.id, dt.datetime(2026, 11, 1, 12, 5), "confirmed", data)
        )
        after = history.save_run(_run(device.id, 10, {"session": "s", "tweaks": ["rps-rfs"]}))
    advice_before, _ = _from_run(before)
    advice_after, _ = _from_run(after)
    assert not any("Tweaks in force" in n for n in advice_before.notes), advice_before.notes
    assert any(
        "Receive packet steering (RPS)" in n for n in advice_after.notes if "Tweaks in force" in n
    )
