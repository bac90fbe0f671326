"""The Results page's export holds what the page shows of Find what helps: each tweak's own run
and the baseline measured again. It held the before and after only, so the report had no table
of what each tweak did, though the page above the Export button showed one."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from sbctune.compare.attribution import contributions
from sbctune.history.records import RunRecord, TestRecord
from sbctune.ui.controllers.exporting import file_name
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.workflow.flow_types import Attribution
from tests.gui.conftest import until
from tests.unit.export.seed_runs import START, seed_history


def _run(device_id: int, trials: list[float], step: dict[str, object] | None) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(trials), trial_means=trials)
    state = {"tweaks": [], "read_back": True, "step": step} if step else None
    return RunRecord(device_id, START, "quick", tests=[test], tuning_state=state, complete=True)


def test_the_export_holds_each_tweaks_run_and_the_baseline_again(
    window: MainWindow, drive: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded, _ = seed_history(tmp_path / "history.sqlite3")  # the window's history file
    device = seeded.run(1).device_id
    base_id = seeded.save_run(_run(device, [690.0, 700.0, 695.0], None))
    steps = [
        seeded.save_run(_run(device, [830.0, 845.0, 838.0],
                             {"tweak": "cpu-governor-performance", "of": base_id})),
        seeded.save_run(_run(device, [735.0, 745.0, 742.0], {"tweak": "rps-rfs", "of": base_id})),
    ]  # fmt: skip
    again_id = seeded.save_run(_run(device, [742.0, 748.0, 739.0], {"reference": True,
                                                                   "of": base_id}))  # fmt: skip
    seeded.close()
    runs = [window.history.run(i) for i in (base_id, *steps, again_id)]
    model = window.state.model
    model.baseline = runs[0]
    model.attribution = Attribution(contributions(runs), reference=runs[-1])
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    out = tmp_path / "out"
    out.mkdir()
    page.folder.setText(str(out))
    page.export(["md"])
    target = out / file_name("md", [base_id, *steps, again_id])
    drive(until(lambda: str(target) in page.export_log.text(), 30, "the export"), timeout=40)
    report = target.read_text(encoding="utf-8")
    assert "What each tweak did on its own" in report
    assert "The baseline measured again after the tweaks" in report
    rps = next(line for line in report.splitlines() if "Receive packet steering" in line)
    assert "no: reverted" in rps  # within how far the baseline moved by itself
