"""Walk 27: `sbctune lab status` of a lab whose sshd had stopped said "broken" and
"problem: sshd is not running", and stopped there: nothing said what to do, where `lab up` ends
with "remove: sbctune lab down NAME". A lab another `lab up` was still starting read "start-up
did not finish (status 'starting')", the state file's raw word. A broken or leftover lab now
ends with the command that removes it, and the start-up problem is in words."""

from __future__ import annotations

import argparse
import types
from typing import Any

import pytest

from sbctune.cli import lab_cmd
from sbctune.lab import lab_status
from sbctune.lab.model import LabStatus


def _show(monkeypatch: pytest.MonkeyPatch, labs: list[LabStatus]) -> tuple[int, str]:
    fake = types.SimpleNamespace(list_labs=lambda **kw: labs, status=lambda name: labs[0])
    monkeypatch.setattr(lab_cmd, "import_lab", lambda: fake)
    code = lab_cmd._status(argparse.Namespace(name=None, json=False))
    return code, ""


@pytest.mark.parametrize("state", ["broken", "leftover"])
def test_a_lab_that_is_not_running_says_how_to_remove_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], state: str
) -> None:
    labs = [LabStatus("walk27-cm4", state, None, ("sshd is not running",))]
    code, _ = _show(monkeypatch, labs)
    out = capsys.readouterr().out
    assert code == 1
    assert "    problem: sshd is not running\n" in out
    assert out.endswith("    remove:   sbctune lab down walk27-cm4\n"), out


def test_a_starting_lab_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    state: dict[str, Any] = {"status": "starting", "name": "x", "host": "198.18.0.2", "port": 22,
                             "user": "pi", "password": "p", "nics": [], "profile": "pi4",
                             "netns": "sbctune-x", "state_dir": "/run/sbctune/labs/x",
                             "index": 1, "pids": {}}  # fmt: skip
    monkeypatch.setattr(lab_status, "read_state", lambda name: state)
    monkeypatch.setattr(lab_status.netns, "netns_exists", lambda ns: True)
    monkeypatch.setattr(lab_status, "alive", lambda pid, what: True)
    found = lab_status.status_unlocked("x")
    assert found.state == "broken"
    words = " ".join(found.problems)
    assert "start-up has not finished" in words
    assert "'starting'" not in words and "status" not in words
