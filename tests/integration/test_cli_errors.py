"""Bad input and interruptions on the command line, against the virtual Pi lab: what the user
sees, the exit code, and that nothing is left half-done. Real SSH, nothing mocked.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sbctune.cli.main import main
from sbctune.history import History
from sbctune.lab.model import LabInfo
from tests.lab_support import cli_as_user

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.lab]


@pytest.fixture
def as_user(lab: LabInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LabInfo:
    """The CLI's environment of a user of this lab: its password, a private data folder."""
    cli_as_user(lab, tmp_path, monkeypatch)
    return lab


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main([*argv, "--accept-new-host-key"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_nic_the_pi_does_not_have_and_a_missing_user(
    as_user: LabInfo, capsys: pytest.CaptureFixture[str]
) -> None:
    pi = f"{as_user.user}@{as_user.host}"
    code, _, err = cli(["measure", pi, "--nic", "eth9", "--duration", "1"], capsys)
    assert code == 1
    assert "The Pi has no network interface eth9." in err  # before: "has no IPv4 address"

    # No user@: asyncssh's default (this machine's user) is tried; before, a TypeError.
    code, _, err = cli(["connect", as_user.host], capsys)
    assert code == 1
    assert "did not accept the" in err and "as user@host" in err


def test_confirm_after_the_guard_ran_out_says_so_and_history_follows(
    as_user: LabInfo, capsys: pytest.CaptureFixture[str]
) -> None:
    pi = f"{as_user.user}@{as_user.host}"
    code, out, _ = cli(["tune", "apply", pi, "--guard", "5", "--tweak", "rps-rfs"], capsys)
    assert code == 0 and "Armed:" in out
    time.sleep(9)  # the guard (5 s) reverts on the Pi by itself

    code, _, err = cli(["tune", "confirm", pi], capsys)
    assert code == 1
    assert "was already put back" in err and "--guard" in err

    code, out, _ = cli(["tune", "status", pi], capsys)
    assert code == 0 and "reverted" in out
    with History.open() as history:
        states = [r.state for d in history.devices() if d.id for r in history.tuning_sessions(d.id)]
    assert states == ["reverted"]  # before: stayed "armed" (and counted as in force)


def test_ctrl_c_during_tune_apply_puts_everything_back(as_user: LabInfo, tmp_path: Path) -> None:
    pi = f"{as_user.user}@{as_user.host}"
    env = dict(os.environ)
    # Ctrl-C while the Pi runs the changes (the 3rd root command of apply), sent by the CLI's
    # own process at that moment so a busy machine cannot make it arrive after apply ended.
    argv = [sys.executable, "-m", "tests.integration.tune_kill_at", "3", "during",
            "tune", "apply", pi, "--accept-new-host-key", "--guard", "60"]  # fmt: skip
    ran = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={**env, "SBCTUNE_TEST_SIGNAL": "INT"},
        cwd=ROOT,
        text=True,
        timeout=180,
        check=False,
    )
    output = ran.stdout + ran.stderr
    assert ran.returncode == 130, output
    assert "Interrupted: putting back" in output and "reverted: every value is back" in output
    assert "Traceback" not in output

    status = subprocess.run(
        [sys.executable, "-m", "sbctune", "tune", "status", pi, "--accept-new-host-key"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert status.returncode == 0
    assert "armed" not in status.stdout and "reverted" in status.stdout
