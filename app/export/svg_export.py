"""The charts as one SVG file (bars per mode; with one run, its readings over time too)."""

from __future__ import annotations

from pathlib import Path

from sbctune.compare import Chart, combined_svg, comparison_charts, timeline_chart
from sbctune.export.report_data import ReportData
from sbctune.textsafe import visible


def charts(data: ReportData) -> list[Chart]:
    found = comparison_charts(data.comparison)
    if len(data.runs) == 1:
        timeline = timeline_chart(data.runs[0])
        if timeline is not None:
            found.append(timeline)
    return found


def export(data: ReportData, path: Path) -> Path:
    path.write_text(visible(combined_svg(charts(data))), encoding="utf-8", newline="\n")
    return path
