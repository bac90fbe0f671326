"""Comparisons of two or more measurement runs, with run-to-run noise, and their charts."""

from sbctune.compare.charts import Chart, bar_chart, combined_svg, comparison_charts, timeline_chart
from sbctune.compare.compare import compare, find_test, run_description, run_label
from sbctune.compare.model import Cell, Comparison, Row, RunSummary, Verdict
from sbctune.compare.noise import noise_threshold

__all__ = [
    "Cell",
    "Chart",
    "Comparison",
    "Row",
    "RunSummary",
    "Verdict",
    "bar_chart",
    "combined_svg",
    "compare",
    "comparison_charts",
    "find_test",
    "noise_threshold",
    "run_description",
    "run_label",
    "timeline_chart",
]
