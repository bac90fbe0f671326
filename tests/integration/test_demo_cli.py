"""The main job headless: `sbctune demo` against the virtual Pi lab it brings up itself, as
`bash scripts/demo.sh` runs it without a display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sbctune import lab as lab_api

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def test_demo_runs_the_one_click_flow_and_writes_the_report(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    labs_before = {s.name for s in lab_api.list_labs()}
    env = dict(os.environ, SBCTUNE_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run(
        [sys.executable, "-m", "sbctune", "demo", "--duration", "4", "--report", str(report)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    # Live progress, each step, then the before/after table and the advice.
    for step in ("Baseline measurement", "Tuning under the auto-revert guard", "Measuring again"):
        assert f"==> {step}" in proc.stderr
    assert "Pi → PC" in proc.stderr and "Mbit/s" in proc.stderr
    # The tuning's gain, as an interval from the trials; the lab models no effect on PC → Pi.
    assert "vs run" in proc.stdout and "Pi → PC half-duplex: faster by " in proc.stdout
    assert "PC → Pi half-duplex: faster" not in proc.stdout
    assert "Use a Realtek RTL8153/RTL8153B-based adapter instead" in proc.stdout
    html = report.read_text(encoding="utf-8")
    assert "ASIX AX88179" in html and "rps-rfs" in html
    # Its lab is gone again.
    left = {s.name for s in lab_api.list_labs()} - labs_before
    assert not [name for name in left if name.startswith("demo-")], left
