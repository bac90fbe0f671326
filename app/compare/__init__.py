"""Comparisons of two or more measurement runs, with run-to-run noise, and their charts."""

from sbctune.compare.charts import Chart, bar_chart, combined_svg, comparison_charts, timeline_chart
from sbctune.compare.compare import compare, find_test, run_description, run_label, spread_key
from sbctune.compare.interval import Change, change, mean_interval, t975, verdict_text
from sbctune.compare.model import Cell, Comparison, Row, RunSummary, Verdict

__all__ = [
    "Cell",
    "Change",
    "Chart",
    "Comparison",
    "Row",
    "RunSummary",
    "Verdict",
    "bar_chart",
    "change",
    "combined_svg",
    "compare",
    "comparison_charts",
    "find_test",
    "mean_interval",
    "run_description",
    "run_label",
    "spread_key",
    "t975",
    "timeline_chart",
    "verdict_text",
]
