"""Walk 15, problem 4: `kill PID` (SIGTERM, as when the desktop session ends) ended a command at
once, skipping what Ctrl-C does. Now every command stops as on Ctrl-C: its running work is
cancelled (its clean-up runs), it says so in one line, no traceback, exit code 128 + 15."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _connect_to_a_silent_sshd(tmp_path: Path, sig: signal.Signals) -> tuple[int, str]:
    """`sbctune connect` to a loopback port that accepts and never says a word (an SSH server
    that hangs): the command waits in the event loop until the signal."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(60)
        port = listener.getsockname()[1]
        env = dict(os.environ, SBCTUNE_DATA_DIR=str(tmp_path), HOME=str(tmp_path),
                   SBCTUNE_PASSWORD="not-a-secret")  # fmt: skip
        proc = subprocess.Popen(
            [sys.executable, "-m", "sbctune", "connect", f"pi@127.0.0.1:{port}",
             "--connect-timeout", "90"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=ROOT, env=env,
        )  # fmt: skip
        try:
            conn, _ = listener.accept()  # it is connected and waits for the SSH banner
            with conn:
                time.sleep(0.5)
                proc.send_signal(sig)
                _out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return proc.returncode, err


@pytest.mark.posix_only("POSIX signals")
@pytest.mark.parametrize(
    ("sig", "code", "said"),
    [(signal.SIGTERM, 143, "sbctune: stopped by SIGTERM"), (signal.SIGINT, 130, "interrupted")],
)
def test_sigterm_stops_a_command_as_ctrl_c_does(
    tmp_path: Path, sig: signal.Signals, code: int, said: str
) -> None:
    returncode, err = _connect_to_a_silent_sshd(tmp_path, sig)
    assert returncode == code, err
    assert "Traceback" not in err, err
    assert said in err, err
