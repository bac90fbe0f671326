"""`sbctune history` names a run's plan as the GUI's History and plan box do, by its title
(plans.plan_title), not by the internal name "quick" (left by the s17 walk's History fix)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sbctune.cli.main import main
from sbctune.history import History, RunRecord
from sbctune.measure.plans import presets

WHEN = dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.timezone.utc)


def _history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(data))
    with History.open(data / "history.sqlite3") as history:
        device = history.add_device("pi.example", 22, "pi", seen_at=WHEN)
        assert device.id is not None
        history.save_run(RunRecord(device.id, WHEN, "quick", complete=True, nic="eth0"))
        stored = {"title": "Quick, 20 s per test"}
        later = WHEN + dt.timedelta(hours=1)
        history.save_run(RunRecord(device.id, later, "quick", plan=stored, nic="eth0"))


def test_the_runs_table_says_each_plans_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _history(tmp_path, monkeypatch)
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "eth0" in line]
    assert len(rows) == 2, out
    assert "Quick, 20 s per test (incomplete)" in rows[0]
    assert presets()["quick"].title in rows[1]
    assert not any(" quick " in f" {row} " for row in rows)


def test_the_json_keeps_the_name_and_adds_the_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _history(tmp_path, monkeypatch)
    assert main(["history", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    runs = [r for d in data["devices"] for r in d["runs"]]
    assert [r["plan"] for r in runs] == ["quick", "quick"]
    assert [r["plan_title"] for r in runs] == ["Quick, 20 s per test", presets()["quick"].title]
