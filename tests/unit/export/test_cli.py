"""`sbctune history`, `compare` and `export` as a user runs them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sbctune.cli.main import main
from sbctune.export import registry
from tests.unit.export.seed_runs import seed_history


@pytest.fixture
def ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    history, run_ids = seed_history(tmp_path / "history.sqlite3")
    history.close()
    return run_ids


def test_history_lists_devices_runs_and_sessions(
    ids: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "Device 1: root@lbox:22  Raspberry Pi 4 Model B" in out
    for run_id in ids:
        assert f"\n  {run_id} " in out
    assert "736" in out and "949" in out and "163/902" in out
    assert "tuning session 20220108T101000Z-a1b2c3: kept" in out
    assert main(["history", "root@lbox", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in doc["devices"][0]["runs"]] == sorted(ids, reverse=True)
    assert doc["devices"][0]["runs"][-1]["mbps"]["pi_to_pc"]["half"] == 736


def test_history_of_an_unknown_host_says_which_are_known(
    ids: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "pi@elsewhere"]) == 1
    err = capsys.readouterr().err
    assert "no device 'pi@elsewhere'" in err and "root@lbox:22" in err


def test_compare_prints_changes_and_verdicts(
    ids: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", str(ids[0]), str(ids[2])]) == 0
    out = capsys.readouterr().out
    row = next(
        line for line in out.splitlines() if line.split()[:5] == ["Pi", "→", "PC", "One", "way"]
    )
    assert "736 Mbit/s" in row and "949 Mbit/s" in row and "+213 Mbit/s (+28.9 %)" in row
    assert "no interval: fewer than 2 trials" in row  # the seed gives means only
    assert main(["compare", str(ids[0]), str(ids[2]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows"][0]["cells"][1]["delta_mbps"] == 213


def test_compare_needs_two_real_runs(ids: list[int], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(ids[0])]) == 1
    assert "two or more runs" in capsys.readouterr().err
    assert main(["compare", str(ids[0]), "999"]) == 1
    assert "no run 999" in capsys.readouterr().err
    assert main(["compare", "first", "second"]) == 1
    assert "'first' is not a run id" in capsys.readouterr().err


def test_export_writes_the_file(ids: list[int], tmp_path: Path) -> None:
    out = tmp_path / "runs.csv"
    assert main(["export", *map(str, ids[:2]), "--format", "csv", "-o", str(out)]) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == 12


def test_export_png_from_the_core_cli_explains(
    ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The core alone, as `python -m sbctune` runs it: a GUI test earlier in the same process
    # may have registered the app's PNG exporter.
    monkeypatch.setattr(registry, "_registered", {})
    assert main(["export", str(ids[0]), "-f", "png", "-o", str(tmp_path / "c.png")]) == 1
    assert "PNG export needs the GUI libraries" in capsys.readouterr().err
