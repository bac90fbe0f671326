"""The latency plot's vertical scale: from the bulk of the probes, not from one spike.

A single spike of a few hundred ms set the top at its value x 1.1 and pressed every other probe
flat on the axis (walk ux30, screens 19/20). The top is now the peak's when the peak is within
three times the 95th percentile; above that the scale stops there and the plot marks the spike
with its value (a fact the user must still see), see LatencyPlot. Three, not two: on the walk's
noisy lab line (p95 ~14 ms, peak 37.6 ms) two clipped three ordinary probes for no gain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FLOOR_MS = 5.0  # the least top: an idle LAN's 0.3 ms probes are not drawn as tall bars
BULK = 0.95  # the share of probes the scale is made for
SPIKE = 3.0  # a probe above this multiple of the bulk's top is clipped and marked
MARGIN = 1.1  # room above the top


@dataclass(frozen=True)
class LatencyScale:
    top: float  # the y-range's top, ms
    peak: float  # the highest probe, ms (nan: none)
    peak_x: float  # its time, s
    clipped: int  # probes above `top`: marked, not drawn whole


def _nearest_rank(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def latency_scale(points: list[tuple[float, float]]) -> LatencyScale:
    """`points`: (time s, round trip ms) of every probe, lost ones (nan) included."""
    finite = [(x, y) for x, y in points if not math.isnan(y)]
    if not finite:
        return LatencyScale(FLOOR_MS * MARGIN, math.nan, math.nan, 0)
    peak_x, peak = max(finite, key=lambda point: point[1])
    bulk = max(FLOOR_MS, _nearest_rank([y for _, y in finite], BULK))
    if peak <= bulk * SPIKE:
        return LatencyScale(max(FLOOR_MS, peak) * MARGIN, peak, peak_x, 0)
    top = bulk * SPIKE * MARGIN
    return LatencyScale(top, peak, peak_x, sum(1 for _, y in finite if y > top))


def spike_ms(value: float) -> str:
    """A spike's round trip as the marker says it: "412 ms", "12.5 ms"."""
    return f"{value:.0f} ms" if value >= 100 else f"{value:.1f} ms"
