"""Walk 26: after `measure` held an armed session's guard, its last words told the user to run
“sbctune tune confirm HOST”, a placeholder, where `tune apply` a minute before had named the Pi
(“sbctune tune confirm pi@198.18.4.2”). A new user copies what is printed: it names the Pi."""

from __future__ import annotations

import argparse
import datetime as dt

import pytest

from sbctune.cli import measure_cmd
from sbctune.history.records import RunRecord
from sbctune.workflow.guard_hold import GuardHold
from sbctune.workflow.measuring import Measured


def test_the_confirm_command_names_the_pi(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(
        measure_cmd, "_print_run", lambda args, run, saved, extra=None: said.append(saved) or 0
    )
    monkeypatch.setattr(measure_cmd, "changed_during_run", lambda record: False)
    monkeypatch.setattr(measure_cmd, "not_a_baseline", lambda record: "")
    monkeypatch.setattr(measure_cmd, "tuning_text", lambda record: "tuning applied 01:38")
    record = RunRecord(
        device_id=1, started_at=dt.datetime.now(dt.timezone.utc), plan_name="quick", id=7
    )
    measured = Measured(run=None, record=record, hold=GuardHold("s1", 90, beats=1))  # type: ignore[arg-type]

    class Before:
        def to_json(self) -> dict[str, str]:
            return {}

    args = argparse.Namespace(target="pi@198.18.4.2", json=False)
    measure_cmd._print_measured(args, measured, Before())  # type: ignore[arg-type]
    assert "“sbctune tune confirm pi@198.18.4.2”" in said[0]
    assert "HOST" not in said[0]
