"""Charts as SVG text (no raster library in the core): bars per direction and mode, readings
over time. Plain SVG Tiny features only (no CSS, no nested <svg>), so QtSvg can rasterise them
for PNG and browsers show them inline."""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from sbctune.compare.model import Cell, Comparison
from sbctune.history.records import DIRECTIONS, Mode, RunRecord
from sbctune.measure.plans import DIRECTION_LABEL
from sbctune.textsafe import visible
from sbctune.wording import mode_words

# Okabe-Ito: distinguishable with the common colour-vision deficiencies, and in greyscale print.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000")
# One colour per run in the before/after bars: the app's own chart's, light theme (grey for the
# first run, the blue for the second: ui/widgets/compare_chart.py), so an exported chart looks
# like the one on screen (walk 14: blue/orange in the PNG, grey/blue in the app).
RUN_PALETTE = ("#6b6b70", "#2563eb", "#d55e00", "#15803d", "#b45309")
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
WIDTH = 720
HEIGHT = 340
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 20, 44, 78


@dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    body: str  # SVG elements, in the chart's own coordinates

    def to_svg(self) -> str:
        return _document(self.width, self.height, self.body)


def _document(width: int, height: int, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">\n'
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>\n{body}</svg>\n'
    )


def combined_svg(charts: list[Chart], gap: int = 16) -> str:
    """Charts stacked vertically in one SVG document (one PNG, one file to post)."""
    width = max((c.width for c in charts), default=WIDTH)
    parts, y = [], 0
    for chart in charts:
        parts.append(f'<g transform="translate(0,{y})">\n{chart.body}</g>\n')
        y += chart.height + gap
    return _document(width, max(y - gap, 1), "".join(parts))


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "middle",
          weight: str = "normal", fill: str = "#222222") -> str:  # fmt: skip
    shown = escape(visible(text))  # a label may hold a Pi's name: no markup, no raw control
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family={quoteattr(FONT)} font-size="{size}" '
        f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}">{shown}</text>\n'
    )


def nice_scale(value: float, ticks: int = 5) -> tuple[float, float]:
    """The axis top and tick step: a step of 1, 2, 2.5 or 5 times a power of ten giving about
    `ticks` intervals, and the first multiple of it at or above `value`."""
    if value <= 0:
        return 1.0, 0.2
    raw = value / ticks
    power = 10 ** math.floor(math.log10(raw))
    step = next(s * power for s in (1, 2, 2.5, 5, 10) if raw <= s * power + 1e-9)
    return math.ceil(value / step - 1e-9) * step, step


def _y_axis(top: float, step: float, plot_h: float, unit: str) -> str:
    out = []
    count = round(top / step)
    for i in range(count + 1):
        value = step * i
        y = _TOP + plot_h - plot_h * value / top
        out.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{WIDTH - _RIGHT}" y2="{y:.1f}" '
            f'stroke="#dddddd" stroke-width="1"/>\n'
        )
        out.append(_text(_LEFT - 6, y + 4, f"{value:g}", size=11, anchor="end"))
    out.append(_text(16, _TOP - 14, unit, size=11, anchor="start", fill="#555555"))
    return "".join(out)


def _legend(labels: list[str], palette: tuple[str, ...] = PALETTE) -> tuple[str, int]:
    """Colour keys below the plot, wrapped into lines; returns the markup and the chart height."""
    out, x, y = [], float(_LEFT), HEIGHT - 38.0
    for index, label in enumerate(labels):
        width = 30 + 7.0 * len(label)
        if x > _LEFT and x + width > WIDTH - _RIGHT:
            x, y = float(_LEFT), y + 18
        color = palette[index % len(palette)]
        out.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="12" height="12" fill="{color}"/>\n')
        out.append(_text(x + 17, y, label, size=12, anchor="start"))
        x += width
    return "".join(out), max(HEIGHT, int(y) + 14)


def _whisker(cell: Cell) -> float:
    """The 95 % interval of the run's mean from its trials; ±1 stdev of the readings for a run
    measured before plans had trials."""
    return cell.half_width_mbps if cell.half_width_mbps is not None else (cell.stdev_mbps or 0.0)


def bar_chart(comparison: Comparison, mode: Mode) -> Chart:
    """Grouped bars: one group per direction, one bar per run, whiskers at the 95 % interval."""
    title = f"{mode_words(mode)} throughput (Mbit/s)"
    rows = [comparison.row(d, mode) for d in DIRECTIONS]
    peak = max(
        ((c.mbps or 0) + _whisker(c) for row in rows if row is not None for c in row.cells),
        default=0.0,
    )
    top, step = nice_scale(peak * 1.05)
    plot_h = HEIGHT - _TOP - _BOTTOM
    plot_w = WIDTH - _LEFT - _RIGHT
    parts = [
        _text(WIDTH / 2, 22, title, size=15, weight="bold"),
        _y_axis(top, step, plot_h, "Mbit/s"),
    ]
    runs = len(comparison.runs)
    group_w = plot_w / len(DIRECTIONS)
    bar_w = min(64.0, group_w * 0.8 / max(runs, 1))
    for g, (direction, row) in enumerate(zip(DIRECTIONS, rows, strict=True)):
        center = _LEFT + group_w * (g + 0.5)
        parts.append(_text(center, HEIGHT - _BOTTOM + 20, DIRECTION_LABEL[direction], size=13))
        if row is None:
            parts.append(_text(center, _TOP + plot_h / 2, "not measured", fill="#888888"))
            continue
        x0 = center - bar_w * runs / 2
        for i, cell in enumerate(row.cells):
            x = x0 + i * bar_w
            if cell.mbps is None:
                parts.append(_text(x + bar_w / 2, _TOP + plot_h - 4, "–", fill="#888888"))
                continue
            h = plot_h * cell.mbps / top
            y = _TOP + plot_h - h
            color = RUN_PALETTE[i % len(RUN_PALETTE)]
            parts.append(
                f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_w - 4:.1f}" height="{h:.1f}" '
                f'fill="{color}"/>\n'
            )
            whisker = _whisker(cell)
            if whisker:
                lo = _TOP + plot_h - plot_h * max(cell.mbps - whisker, 0) / top
                hi = _TOP + plot_h - plot_h * (cell.mbps + whisker) / top
                mid = x + bar_w / 2
                parts.append(
                    f'<line x1="{mid:.1f}" y1="{lo:.1f}" x2="{mid:.1f}" y2="{hi:.1f}" '
                    f'stroke="#333333" stroke-width="1.5"/>\n'
                )
            label_y = min(y, _TOP + plot_h - plot_h * (cell.mbps + whisker) / top)
            parts.append(_text(x + bar_w / 2, label_y - 5, f"{cell.mbps:.0f}", size=11))
    parts.append(
        f'<line x1="{_LEFT}" y1="{_TOP + plot_h}" x2="{WIDTH - _RIGHT}" y2="{_TOP + plot_h}" '
        f'stroke="#333333" stroke-width="1"/>\n'
    )
    legend, height = _legend([r.label for r in comparison.runs], RUN_PALETTE)
    return Chart(title, WIDTH, height, "".join(parts) + legend)


def timeline_chart(run: RunRecord, title: str | None = None) -> Chart | None:
    """Each test's per-second readings over the seconds of the test (omitted ones included)."""
    series = [(t, t.intervals) for t in run.tests if len(t.intervals) >= 2]
    if not series:
        return None
    title = title or f"Per-second throughput, {run.nic or 'NIC'} (Mbit/s)"
    t_max = max(i.t for _, intervals in series for i in intervals)
    top, step = nice_scale(max(i.mbps for _, intervals in series for i in intervals) * 1.05)
    plot_h = HEIGHT - _TOP - _BOTTOM
    plot_w = WIDTH - _LEFT - _RIGHT
    parts = [
        _text(WIDTH / 2, 22, title, size=15, weight="bold"),
        _y_axis(top, step, plot_h, "Mbit/s"),
    ]
    labels = []
    for index, (test, intervals) in enumerate(series):
        color = PALETTE[index % len(PALETTE)]
        points = " ".join(
            f"{_LEFT + plot_w * i.t / t_max:.1f},{_TOP + plot_h - plot_h * i.mbps / top:.1f}"
            for i in intervals
        )
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2"/>\n'
        )
        labels.append(f"{DIRECTION_LABEL[test.direction]}, {mode_words(test.mode)}")
    for i in range(6):
        x = _LEFT + plot_w * i / 5
        parts.append(_text(x, HEIGHT - _BOTTOM + 16, f"{t_max * i / 5:.0f} s", size=11))
    legend, height = _legend(labels)
    return Chart(title, WIDTH, height, "".join(parts) + legend)


def comparison_charts(comparison: Comparison) -> list[Chart]:
    return [bar_chart(comparison, mode) for mode in comparison.modes]
