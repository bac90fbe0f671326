"""`sbctune history`'s line per tuning session counts what each tweak read back (s12 walk: it
said "6 of 8 tweaks applied" although some had been in force already and nothing changed)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from sbctune.cli.main import main
from sbctune.history import History, TuningSessionRecord
from sbctune.tuning.model import HELD_FOR_LINK
from sbctune.tuning.words import outcome_counts

WHEN = dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.timezone.utc)


def _tweak(tweak_id: str, status: str, detail: str = "") -> dict[str, Any]:
    return {"id": tweak_id, "status": status, "detail": detail, "changes": []}


# 8 tweaks: 2 changed, 4 already so, 2 not possible (one of them only held for the SSH link).
TWEAKS = [
    _tweak("cpu-governor", "applied"),
    _tweak("rps-rfs", "applied"),
    _tweak("tcp-buffers", "already"),
    _tweak("net-backlog", "already"),
    _tweak("nic-rings", "already"),
    _tweak("tcp-congestion-bbr", "already"),
    _tweak("boot-arm-freq", "not_possible", "the kernel answered no"),
    _tweak("nic-offloads", "not_possible", HELD_FOR_LINK),
]


def _history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(data))
    with History.open(data / "history.sqlite3") as history:
        device = history.add_device("pi.example", 22, "pi", seen_at=WHEN)
        assert device.id is not None
        history.save_tuning_session(
            TuningSessionRecord(device.id, WHEN, state, {"id": "s-1", "tweaks": TWEAKS})
        )


def _session_line(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["history"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if "tuning session" in x]
    assert len(lines) == 1
    return lines[0]


def test_a_kept_session_says_what_changed_and_what_was_already_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _history(tmp_path, monkeypatch, "confirmed")
    line = _session_line(capsys)
    assert "8 tweaks: 2 changed, 4 already in force, 1 not possible, 1 held back" in line
    assert "6 of 8" not in line and "applied" not in line and "confirmed" not in line
    assert "kept" in line


def test_a_reverted_session_says_what_it_had_done_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _history(tmp_path, monkeypatch, "reverted")
    line = _session_line(capsys)
    assert "put back" in line and "before they were put back: 2 changed" in line
    assert "then in force" in line and "(in force" not in line


def test_counts_of_unknown_or_no_outcomes() -> None:
    assert outcome_counts([]) == "no tweaks"
    assert outcome_counts([("applied", ""), ("odd", "")]) == (
        "1 changed, 1 with an outcome this sbctune does not know"
    )
