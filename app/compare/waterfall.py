"""The waterfall chart of "Find what helps": from the baseline, each tweak's change on its own
as a bar with its 95 % interval, one panel per direction and mode (SVG, sbctune.compare.charts'
conventions)."""

from __future__ import annotations

import math
import textwrap

from sbctune.compare.attribution import Contribution
from sbctune.compare.charts import PALETTE, WIDTH, Chart, _text, nice_scale
from sbctune.tuning.words import tweak_title

HEIGHT = 300
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 20, 44, 90
_GAIN, _LOSS, _NONE = PALETTE[2], PALETTE[3], "#999999"


def waterfall(contributions: list[Contribution], label: str | None = None) -> Chart:
    """Bars for `label` (default: the first direction measured), each tweak's change from the
    baseline; a bar that does not help is grey, its interval drawn as a whisker."""
    labels = list(dict.fromkeys(e.label for c in contributions for e in c.effects))
    wanted = label or (labels[0] if labels else "")
    bars = []
    for c in contributions:
        effect = next((e for e in c.effects if e.label == wanted), None)
        if effect is not None:
            bars.append((c, effect))
    title = f"What each tweak did alone: {wanted} (Mbit/s vs the baseline, 95 % interval)"
    reach = max([1.0] + [abs(v) for _, e in bars for v in (e.delta, e.low, e.high)
                         if math.isfinite(v)])  # fmt: skip
    top, _step = nice_scale(reach)
    plot_h = HEIGHT - _TOP - _BOTTOM
    zero_y = _TOP + plot_h / 2

    def y(value: float) -> float:
        return zero_y - value / top * (plot_h / 2)

    body = [_text(WIDTH / 2, 20, title, size=13, weight="bold")]
    body.append(f'<line x1="{_LEFT}" y1="{zero_y:.1f}" x2="{WIDTH - _RIGHT}" y2="{zero_y:.1f}" '
                'stroke="#444444" stroke-width="1"/>\n')  # fmt: skip
    for value in (top, -top):
        body.append(_text(_LEFT - 6, y(value) + 4, f"{value:+.0f}", size=10, anchor="end"))
    slot = (WIDTH - _LEFT - _RIGHT) / max(1, len(bars))
    for i, (c, e) in enumerate(bars):
        x = _LEFT + i * slot + slot * 0.2
        width = slot * 0.6
        colour = _GAIN if e.verdict == "faster" else _LOSS if e.verdict == "slower" else _NONE
        y0, y1 = sorted((y(0), y(e.delta)))
        body.append(f'<rect x="{x:.1f}" y="{y0:.1f}" width="{width:.1f}" '
                    f'height="{max(1.0, y1 - y0):.1f}" fill="{colour}"/>\n')  # fmt: skip
        if math.isfinite(e.low) and math.isfinite(e.high):
            mid = x + width / 2
            body.append(
                f'<line x1="{mid:.1f}" y1="{y(e.low):.1f}" x2="{mid:.1f}" '
                f'y2="{y(e.high):.1f}" stroke="#222222" stroke-width="1.5"/>\n'
            )
        # Its name, never its id, on up to two lines (walk 14: cut to "Larger socket buffers
        # and receive…" on one).
        lines = _name_lines(tweak_title(c.tweak_id), int(slot / 6))
        for row, line in enumerate(lines):
            body.append(_text(x + width / 2, HEIGHT - _BOTTOM + 16 + 13 * row, line, size=10))
        body.append(_text(x + width / 2, HEIGHT - _BOTTOM + 46, e.text[:40], size=9))
    return Chart(title, WIDTH, HEIGHT, "".join(body))


def _name_lines(title: str, chars: int) -> list[str]:
    """A tweak's title under its bar: whole on two lines where it fits, else as `_short`."""
    chars = max(8, chars)
    lines = textwrap.wrap(title, chars)
    if len(lines) <= 2:
        return lines
    return textwrap.wrap(_short(title, 2 * chars), chars)[:2]


def _short(title: str, chars: int) -> str:
    """A tweak's title that fits under its bar: up to its bracket ("Receive packet steering
    (RPS) with …" -> "Receive packet steering (RPS)"), then cut with "…"."""
    if ") " in title:
        title = title[: title.index(") ") + 1]
    chars = max(8, chars)
    return title if len(title) <= chars else title[: chars - 1].rstrip() + "…"
