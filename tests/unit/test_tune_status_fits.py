"""`sbctune tune status` in an 80-column terminal (walk s23, the pi5-macb lab): each outcome ran
to 120 columns ("✔ Receive packet steering (RPS) with flow steering (RFS): applied; on the Pi
now: not in force (the original values)") and the terminal cut it mid-word; the session was
headed by its id alone ("20261130T151915Z-8382d7  reverted  nic=eth0  persist=no") where every
other command names it by when it was applied."""

from __future__ import annotations

import pytest

from sbctune.cli import fit as fit_module
from sbctune.cli import tune_status
from sbctune.tuning.model import Change, LeftoverSession, LiveValue, TweakOutcome

RPS = Change("file", "/sys/class/net/eth0/queues/rx-0/rps_cpus", "0", "f",
             path="/sys/class/net/eth0/queues/rx-0/rps_cpus")  # fmt: skip


def _session() -> LeftoverSession:
    return LeftoverSession(
        id="20261130T151915Z-8382d7", state="reverted", started_at="2026-11-30T15:19:15Z",
        nic="eth0", persist=False,
        outcomes=[TweakOutcome("rps-rfs", "applied", "", [RPS]),
                  TweakOutcome("flow-control", "not_needed", "only for NICs known to need it")],
        live=[LiveValue(RPS, "0", "original")],
    )  # fmt: skip


def test_tune_status_fits_an_80_column_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)
    assert tune_status.print_status([_session()], as_json=False) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) < 80, [line for line in lines if len(line) >= 80]
    said = " ".join(" ".join(lines).split())
    assert said.startswith("tuning applied 2026-11-30 "), said  # when, in local time
    assert "(session 20261130T151915Z-8382d7): reverted; NIC eth0" in said, said
    assert ("✔ Receive packet steering (RPS) with flow steering (RFS): applied; on the Pi now: "
            "not in force (the original values)") in said  # fmt: skip
    assert "nic=" not in said and "persist=" not in said


def test_a_pipe_keeps_each_outcome_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert tune_status.print_status([_session()], as_json=False) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.strip().startswith("✔ Receive") and line.endswith("(the original values)")
               for line in lines), lines  # fmt: skip
