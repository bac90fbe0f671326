"""Comparisons of runs: seed 000's figures, the noise rule, the charts."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sbctune.compare import bar_chart, compare, comparison_charts, noise_threshold, timeline_chart
from sbctune.compare.charts import nice_scale
from sbctune.compare.noise import Spread
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
    # The seed publishes means only: no readings, so no claim about noise either way.
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


def test_noise_threshold_is_two_standard_errors_or_two_percent() -> None:
    # 60 readings each with a stdev of 30 Mbit/s: 2·√(30²/60·2) ≈ 10.95 Mbit/s > 2 % of 300.
    wide = Spread(300.0, 30.0, 60)
    assert noise_threshold(wide, wide) == pytest.approx(2 * math.sqrt(2 * 900 / 60))
    # A steady link at line rate: the 2 % floor (18.8 Mbit/s of 940) rules.
    steady = Spread(940.0, 1.0, 60)
    assert noise_threshold(steady, steady) == pytest.approx(18.8)


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


def test_changes_are_held_against_the_noise_of_the_readings() -> None:
    # Readings shaped like a lab run of the ax88179 profile (736 Mbit/s shaped, ±~10).
    before = _run(1, [300, 731, 742, 728, 739, 745, 733, 736, 741, 729, 738])
    small = _run(2, [310, 738, 749, 733, 744, 751, 739, 742, 747, 735, 744])
    big = _run(3, [320, 828, 839, 825, 836, 842, 830, 833, 838, 826, 835])
    result = compare([before, small, big])
    row = result.row("pi_to_pc", "half")
    assert row is not None
    assert row.cells[0].samples == 10  # the omitted first second is not counted
    assert row.cells[1].verdict == "within_noise" and not row.cells[1].significant
    assert row.cells[2].verdict == "significant" and row.cells[2].significant
    assert row.cells[2].noise_mbps is not None and row.cells[2].noise_mbps < 97


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
