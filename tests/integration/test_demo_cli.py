"""The main job headless: `sbctune demo` against the virtual Pi lab it brings up itself, as
`bash scripts/demo.sh` runs it without a display.

This is also the one run of the whole one-click flow on pi4-ax88179 with the plan's trials
(tests/integration/test_flow.py runs the other seed profiles through the API): besides what
the user reads, it checks what the demo kept in the history (the runs, the tweaks in force,
the raw outputs that export as a bundle) and the tuning's gain computed from those runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sbctune import lab as lab_api
from sbctune.advice.inspect import inspect_bundle
from sbctune.compare import compare
from sbctune.export import export, gather
from sbctune.history import History
from sbctune.history.store import FILE_NAME

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def test_demo_runs_the_one_click_flow_and_writes_the_report(tmp_path: Path) -> None:
    """pi4-ax88179 models seed 000's CPU-bound transmit: the performance governor with RPS on
    eth1 lifts Pi→PC from 736 towards 834 Mbit/s. The flow must apply both and show the gain."""
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
    assert "Pi → PC half-duplex: faster by " in proc.stderr  # the flow's results step says it too
    # The seed author's conclusion comes first: "the rtl8153 is much better suited".
    first = [line for line in proc.stdout.splitlines() if line.startswith("  1. [")]
    assert first and first[0].startswith("  1. [adapter] ") and "RTL8153" in first[0], first
    assert "Use a Realtek RTL8153/RTL8153B-based adapter instead" in proc.stdout
    html = report.read_text(encoding="utf-8")
    assert "ASIX AX88179" in html and "Receive packet steering (RPS)" in html  # by title
    # Its lab is gone again.
    left = {s.name for s in lab_api.list_labs()} - labs_before
    assert not [name for name in left if name.startswith("demo-")], left

    # What the demo kept: the baseline and the run with both tweaks in force, each direction
    # with the plan's trials, their raw outputs exportable as a diagnostics bundle.
    with History.open(tmp_path / "data" / FILE_NAME) as history:
        (device,) = history.devices()
        baseline, after = sorted(history.runs_for_device(device.id or 0), key=lambda r: r.id or 0)
        assert baseline.tuning_state is None and after.tuning_state is not None
        kept = set(after.tuning_state["tweaks"])
        assert {"cpu-governor-performance", "rps-rfs"} <= kept, after.tuning_state
        assert all(len(t.trial_means) >= 3 for t in (*baseline.tests, *after.tests))
        ids = [r.id for r in (baseline, after) if r.id is not None]
        bundle = export("bundle", gather(history, ids), tmp_path / "pi.zip")
    nic = inspect_bundle(bundle).nic("eth1")
    assert nic is not None and nic.chip is not None and "AX88179" in nic.chip
    # The relation, not absolute rates (a busy machine measures lower): Pi → PC is faster, its
    # whole 95 % interval above zero; PC → Pi, which the lab's tweak does not touch, is not.
    comparison = compare([baseline, after])
    tx, rx = comparison.row("pi_to_pc", "half"), comparison.row("pc_to_pi", "half")
    assert tx is not None and tx.cells[1].verdict == "faster", tx
    assert rx is not None and rx.cells[1].verdict not in ("faster", "slower"), rx
