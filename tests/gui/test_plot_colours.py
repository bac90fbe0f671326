"""The plots read well: legend and axis text at least 4.5:1 against the plot (WCAG AA), the
legend on its own backdrop rather than over the lines, and the series of one plot told apart
with normal colour vision and with the common colour-blindness (protanopia, deuteranopia,
simulated with Viénot, Brettel & Mollon's 1999 matrices)."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from sbctune.ui.main_window import MainWindow
from sbctune.ui.theme import DARK, LIGHT, Colors

# Linear-RGB simulation matrices (Viénot, Brettel, Mollon 1999, "Digital video colourmaps for
# checking the legibility of displays by dichromats", Color Research & Application 24(4)).
SIMULATE = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)),
    "deuteranopia": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)),
}
SERIES = {
    "throughput": ("pi_to_pc", "pc_to_pi", "line_rate"),
    "CPU per core": ("cpu_user", "cpu_system", "cpu_irq", "cpu_softirq"),
}
MIN_DELTA_E = 20.0  # CIE76: clearly different colours side by side


def _linear(hex_color: str) -> tuple[float, float, float]:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    h = hex_color.lstrip("#")
    r, g, b = (channel(int(h[i : i + 2], 16)) for i in (0, 2, 4))
    return r, g, b


def luminance(hex_color: str) -> float:
    r, g, b = _linear(hex_color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str, vision: str) -> float:
    m = SIMULATE[vision]

    def seen(c: str) -> tuple[float, float, float]:
        rgb = _linear(c)
        out = [max(0.0, sum(m[i][j] * rgb[j] for j in range(3))) for i in range(3)]
        return out[0], out[1], out[2]

    return math.dist(_lab(seen(a)), _lab(seen(b)))


@pytest.mark.parametrize("colors", [LIGHT, DARK], ids=["light", "dark"])
def test_plot_text_has_contrast(colors: Colors) -> None:
    assert contrast(colors.foreground, colors.background) >= 4.5


@pytest.mark.parametrize("colors", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize("vision", list(SIMULATE))
def test_series_colours_are_told_apart(colors: Colors, vision: str) -> None:
    close = [
        f"{plot}: {a} and {b} ({delta_e(getattr(colors, a), getattr(colors, b), vision):.0f})"
        for plot, names in SERIES.items()
        for a, b in itertools.combinations(names, 2)
        if delta_e(getattr(colors, a), getattr(colors, b), vision) < MIN_DELTA_E
    ]
    assert not close, close


def test_the_check_sees_look_alike_colours() -> None:
    # The CPU plot's former "user" and "system": 1.1:1 apart.
    assert delta_e("#93c5fd", "#a5b4fc", "normal") < MIN_DELTA_E
    assert contrast("#93c5fd", "#a5b4fc") < 1.2


def test_legends_sit_on_the_plot_background(window: MainWindow) -> None:
    page = window.baseline_page
    for plot in (page.throughput, page.latency, page.cpu, window.results_page.chart):
        brush = plot.legend.opts["brush"]
        assert brush.color().alpha() >= 230, type(plot).__name__
        assert contrast(brush.color().name(), window.theme.colors.foreground) >= 4.5
        for _sample, text in plot.legend.items:  # the labels' colour, as drawn (HTML)
            found = re.search(r"color:\s*(#[0-9a-fA-F]{6})", text.item.toHtml())
            drawn = found.group(1) if found else text.item.defaultTextColor().name()
            assert contrast(drawn, brush.color().name()) >= 4.5, (type(plot).__name__, drawn)
    assert page.latency.getPlotItem().titleLabel.text  # the latency plot has a title
