"""`sbctune tune apply` and `tune plan` without --tweak on the Pi 5 lab (macb: a ring change closes
and reopens the interface the SSH session runs over). The rings are held back, and the user
reads that, and the flag that allows it: not "not possible", and not the driver's function
names (issue 21/22 leftover)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.lab_support import cli_connected, cli_output
from tests.plain_words import jargon

pytestmark = [pytest.mark.lab]

RINGS = "NIC rings to the hardware maximum"
HELD = (
    f"{RINGS}: held back (restarts the link you are connected over; run again with the flag "
    "--allow-link-restart to allow it)"
)


def test_apply_without_tweak_says_held_back_and_the_flag(
    lab_factory: Callable[..., LabInfo],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lab = lab_factory("pi5-macb")
    pi = cli_connected(lab, tmp_path, monkeypatch, capsys)
    plan = cli_output(["tune", "plan", pi], capsys)
    assert f"{RINGS}: held back (restarts the link you are connected over)" in plan, plan
    assert "(to allow it: run again with the flag --allow-link-restart)" in plan
    # armed: stdin is no terminal
    applied = cli_output(["tune", "apply", pi, "--guard", "60"], capsys)
    try:
        line = next(x for x in applied.splitlines() if RINGS in x)
        assert line.strip().endswith(HELD), applied
        assert "not possible" not in line and "macb" not in line, line
        assert not jargon(applied, cli=True), jargon(applied, cli=True)
        # the session kept on the Pi says the same
        status = cli_output(["tune", "status", pi], capsys)
        line = next(x for x in status.splitlines() if RINGS in x)
        assert line.strip().endswith(HELD) and "not possible" not in line, status
    finally:
        cli_output(["tune", "revert", pi], capsys)
