"""The results table and chart show each run's 95 % interval (error bars) and the verdict in
words (sbctune.compare), from runs as the history keeps them."""

from __future__ import annotations

import statistics

from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord, TestRecord
from sbctune.ui.controllers.results import result_rows
from sbctune.ui.theme import LIGHT
from sbctune.ui.widgets.compare_chart import CompareChart
from sbctune.ui.widgets.run_table import CompareTable
from tests.unit.export.seed_runs import START


def _run(run_id: int, trials: list[float], wobble: float) -> RunRecord:
    return RunRecord(1, START, "quick", id=run_id, tests=[
        TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(trials), trial_means=trials),
        TestRecord("pc_to_pi", "half", mean_mbps=949.0, trial_means=[949.0, 949 + wobble, 948.0]),
    ])  # fmt: skip


def test_table_and_chart_carry_the_interval(gui_app: QApplication) -> None:
    runs = [_run(1, [736.0, 736.8, 738.8], 0.5), _run(2, [830.4, 836.2, 833.0], 1.0)]
    rows = result_rows(runs)
    tx = next(r for r in rows if r.direction == "pi_to_pc")
    assert tx.significant is True and tx.verdict_text.startswith("faster by ")
    assert tx.half_widths is not None and all(h is not None and h > 0 for h in tx.half_widths)
    table = CompareTable()
    table.show_rows(["run 1", "run 2"], rows, "Mbit/s")
    changes = [table.item(r, 4).text() for r in range(table.rowCount())]  # type: ignore[union-attr]
    assert any("faster by " in c for c in changes), changes
    assert any("no change detected (" in c for c in changes), changes
    chart = CompareChart(LIGHT)
    chart.show_rows(["run 1", "run 2"], rows, "Mbit/s")
    assert len(chart.error_bars) == 2  # one set of whiskers per run
    gui_app.processEvents()
    chart.show_rows(["run 1", "run 2"], rows, "Mbit/s")  # redrawn, not piled up
    assert len(chart.error_bars) == 2


def test_change_column_never_breaks_a_figure_from_its_unit(gui_app: QApplication) -> None:
    """At 800 x 600 the s11 walk read "(+13.2" on one line and "%)" on the next, "111" and
    "Mbit/s": the change column wraps, but only between figures, never inside one."""
    runs = [_run(1, [736.0, 736.8, 738.8], 0.5), _run(2, [830.4, 836.2, 833.0], 1.0)]
    table = CompareTable()
    table.show_rows(["run 1", "run 2"], result_rows(runs), "Mbit/s")
    changes = [table.item(r, 4).text() for r in range(table.rowCount())]  # type: ignore[union-attr]
    assert any("%" in c for c in changes) and any("Mbit/s" in c for c in changes), changes
    import re

    broken = [c for c in changes if re.search(r"\d (%|Mbit/s|ms\b)", c)]
    assert not broken, broken
    assert any(re.search(r"\d\u00a0%", c) for c in changes), changes
