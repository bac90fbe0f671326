"""`sbctune --self-test` (the packaging smoke test uses it): every page renders, both themes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gui.conftest import SCREENSHOTS

PAGES = ("connect", "inspect", "baseline", "tune", "again", "results", "devices", "history")


@pytest.mark.parametrize("argv", [["--self-test"], ["gui", "--self-test"]])
def test_self_test_renders_every_page_and_exits_0(argv: list[str], tmp_path: Path) -> None:
    # The user's data folder: the self-test must leave it untouched (checked below, on the
    # same run, rather than on a third run of ~12 s).
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SBCTUNE_DATA_DIR=str(tmp_path))
    shots = SCREENSHOTS / "selftest"
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from sbctune.ui.launcher import main; "
         "sys.exit(main(sys.argv[1:]))", *argv, "--screenshots", str(shots)],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "sbctune self-test OK" in done.stdout
    for page in (*PAGES, "settings", "hostkey", "about"):
        for theme in ("light", "dark"):
            assert f"{page}/{theme}" in done.stdout
            assert (shots / f"{page}-{theme}.png").stat().st_size > 5000
    assert not list(tmp_path.glob("history*")), "sample runs stay in a scratch dir"


def test_self_test_reports_a_bad_argument() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from sbctune.ui.launcher import main; "
         "sys.exit(main(['--self-test', '--screenshots']))"],
        capture_output=True, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--screenshots needs a folder" in done.stderr
