"""Walk 15, problem 4, the desktop app: SIGTERM (`kill PID`, the desktop session ending) ended
the app at once, without what its Close does. Now it closes as Close does, asking nothing
(tuning armed on the Pi is left to its guard): running work stopped, the window's place saved,
no traceback, exit code 128 + 15."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.posix_only("POSIX signals")
def test_sigterm_closes_the_app_as_close_does(tmp_path: Path) -> None:
    env = dict(os.environ, SBCTUNE_DATA_DIR=str(tmp_path), HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "sbctune.ui.launcher"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        # The window is filled once it opened the history: then it runs its event loop.
        while not list(tmp_path.glob("*.sqlite3")) and proc.poll() is None:
            assert time.monotonic() < deadline, "the window never opened its history"
            time.sleep(0.2)
        time.sleep(1.0)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert "Traceback" not in err, err
    # Close's own work ran: the window's place is kept for the next start.
    assert "geometry" in (tmp_path / "gui.ini").read_text(encoding="utf-8")
