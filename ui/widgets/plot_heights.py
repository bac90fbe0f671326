"""The plots' fixed heights, in a module of their own (no Qt, no plots) so that the place a
page holds for a plot before it is made (widgets.lazy) is the plot's own height: a shorter
place cut off its bottom axis. The plots read them from here too, which keeps them out of an
import cycle with the lazy stand-in that builds them."""

from __future__ import annotations

CHART_HEIGHT = 280  # CompareChart
THROUGHPUT_HEIGHT = 280
LATENCY_HEIGHT = 175  # 140 for the title and the plot, the rest for the legend's strip
CPU_HEIGHT = 230  # 200 for the bars, the rest for the legend's strip
