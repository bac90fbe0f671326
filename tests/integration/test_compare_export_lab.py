"""Two real runs against the lab, stored as `measure` stores them, compared and reported."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from sbctune.compare import compare
from sbctune.export import export, gather
from sbctune.history import History
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import measure
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PLAN = plan_named("quick").with_overrides(duration=4, omit=1, streams=4)


async def test_two_lab_runs_compare_within_noise_and_report(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    with History.open(tmp_path / "history.sqlite3") as history:
        ids = []
        async with await connect_to_lab(lab, tmp_path) as session:
            for _ in range(2):
                run = await measure(session, PLAN, nic=lab.test_nic.name)
                ids.append(save_measurement(history, session.target, session.username, run, PLAN))
        runs = [history.run(i) for i in ids]
        result = compare(runs)
        row = result.row("pi_to_pc", "half")
        assert row is not None and row.cells[1].samples == 4  # the omitted second dropped
        # The same shaped link twice (736 Mbit/s, seed 000): a difference within the noise.
        assert row.cells[0].mbps == pytest.approx(736, rel=0.05)
        assert row.cells[1].verdict == "within_noise", row.cells[1]
        data = gather(history, ids)
    report = export("html", data, tmp_path / "report.html")
    profile = tmp_path / "chromium"
    profile.mkdir()
    dom = subprocess.run(
        ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    first = runs[0].tests[0]
    assert first.mean_mbps is not None and f"{first.mean_mbps:.0f} Mbit/s" in dom
    assert "within noise" in dom
    assert dom.count("<svg") == 1  # half duplex only: one bar chart
