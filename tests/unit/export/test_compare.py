"""Comparisons of runs: seed 000's figures, the charts (the interval: test_compare_interval)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sbctune.compare import bar_chart, compare, comparison_charts, timeline_chart
from sbctune.compare.charts import nice_scale
from sbctune.errors import UserError
from sbctune.history.records import Interval, RunRecord, TestRecord
from tests.unit.export.seed_runs import seed_run

SVG = "{http://www.w3.org/2000/svg}"


def test_adapter_a_vs_b_gives_the_seeds_changes() -> None:
    ax, rtl = seed_run("ax88179", 1500), seed_run("rtl8153", 1500)
    ax.id, rtl.id = 1, 2
    result = compare([ax, rtl])
    half = result.row("pi_to_pc", "half")
    assert half is not None
    assert [c.mbps for c in half.cells] == [736, 949]
    assert half.cells[1].delta_mbps == pytest.approx(213)
    assert half.cells[1].delta_pct == pytest.approx(213 / 736 * 100)
    full = result.row("pi_to_pc", "full")
    assert full is not None and full.cells[1].delta_mbps == pytest.approx(538 - 163)
    # The seed publishes means only: no trials, so no claim about noise either way.
    assert half.cells[1].verdict == "unknown" and not half.cells[1].significant
    assert half.cells[0].verdict == "baseline"
    assert [(r.direction, r.mode) for r in result.rows] == [
        ("pi_to_pc", "half"), ("pc_to_pi", "half"), ("pi_to_pc", "full"), ("pc_to_pi", "full"),
        ("pi_to_pc", "full_throttled"), ("pc_to_pi", "full_throttled"),
    ]  # fmt: skip


def test_a_direction_missing_from_one_run_is_marked_missing() -> None:
    ax, rtl = seed_run("ax88179", 1500), seed_run("rtl8153", 1500)
    rtl.tests = [t for t in rtl.tests if t.mode == "half"]
    row = compare([ax, rtl]).row("pi_to_pc", "full")
    assert row is not None and row.cells[1].verdict == "missing" and row.cells[1].mbps is None


def test_nothing_to_compare_is_a_user_error() -> None:
    with pytest.raises(UserError):
        compare([])


def _run(run_id: int, readings: list[float]) -> RunRecord:
    """A run with per-second readings; the first is an omitted second (omit=1)."""
    counted = readings[1:]
    mean = sum(counted) / len(counted)
    stdev = math.sqrt(sum((x - mean) ** 2 for x in counted) / len(counted))
    test = TestRecord(
        "pi_to_pc", "half", mean_mbps=mean, stdev_mbps=stdev,
        intervals=[Interval(float(i + 1), x) for i, x in enumerate(readings)],
    )  # fmt: skip
    plan = {"tests": [{"mode": "half", "directions": ["pi_to_pc"], "duration": 10, "omit": 1}]}
    return RunRecord(1, seed_run("ax88179", 1500).started_at, "quick", plan=plan, tests=[test],
                     id=run_id)  # fmt: skip


def test_bar_chart_whiskers_are_the_runs_95_percent_interval() -> None:
    before = _run(1, [300, 731, 742, 728, 739, 745])
    before.tests[0].trial_means = [736.0, 736.8, 738.8]
    after = _run(2, [300, 731, 742, 728, 739, 745])
    after.tests[0].trial_means = [600.0, 900.0, 750.0]  # wide: a long whisker
    root = ET.fromstring(bar_chart(compare([before, after]), "half").to_svg())
    whiskers = [
        abs(float(w.attrib["y1"]) - float(w.attrib["y2"]))
        for w in root.iter(f"{SVG}line")
        if w.attrib.get("stroke-width") == "1.5"
    ]
    assert len(whiskers) == 2 and whiskers[1] > 20 * whiskers[0]


def test_bar_chart_is_svg_with_each_runs_figure() -> None:
    ax, rtl = seed_run("ax88179", 1500), seed_run("rtl8153", 1500)
    ax.id, rtl.id = 7, 8
    chart = bar_chart(compare([ax, rtl]), "full")
    root = ET.fromstring(chart.to_svg())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"163", "902", "538", "847"} <= set(texts)
    assert {"run 7", "run 8", "Pi → PC", "PC → Pi"} <= set(texts)
    assert len(comparison_charts(compare([ax, rtl]))) == 3  # one per mode measured


def test_timeline_chart_draws_each_tests_readings(tmp_path: Path) -> None:
    run = _run(1, [300, 731, 742, 728, 739, 745])
    chart = timeline_chart(run)
    assert chart is not None
    root = ET.fromstring(chart.to_svg())
    lines = list(root.iter(f"{SVG}polyline"))
    assert len(lines) == 1 and len(lines[0].attrib["points"].split()) == 6
    assert timeline_chart(seed_run("ax88179", 1500)) is None  # no readings, no chart


@pytest.mark.parametrize(
    ("peak", "top", "step"), [(996, 1000, 200), (1025, 1250, 250), (98.7, 100, 20), (0, 1, 0.2)]
)
def test_axis_scale_is_round(peak: float, top: float, step: float) -> None:
    assert nice_scale(peak) == (pytest.approx(top), pytest.approx(step))
