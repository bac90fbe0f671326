"""The plots' fixed heights, in a module of their own (no Qt, no plots) so that the place a
page holds for a plot before it is made (widgets.lazy) is the plot's own height: a shorter
place cut off its bottom axis. The plots read them from here too, which keeps them out of an
import cycle with the lazy stand-in that builds them."""

from __future__ import annotations

CHART_HEIGHT = 280  # CompareChart
THROUGHPUT_HEIGHT = 280
# The title (30 px), the legend's strip (45) and the time axis (21) take 96 px at the app's
# 9 pt; the probes get the rest. 175 left them 80 px, two tick labels, a spike pressing the
# line flat (walk ux30 at 150 % on 1366 x 768 and at 800 x 600): 130 px now.
LATENCY_BAND = 130
LATENCY_HEIGHT = 96 + LATENCY_BAND
CPU_HEIGHT = 230  # 200 for the bars, the rest for the legend's strip
