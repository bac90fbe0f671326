"""Throughput figures in the unit the user chose."""

from __future__ import annotations

import re

from sbctune.ui.settings import Units


def scale(units: Units) -> float:
    """Divide Mbit/s by this to get the chosen unit."""
    return 1000.0 if units == "Gbit/s" else 1.0


def rate(mbps: float | None, units: Units, *, with_unit: bool = True) -> str:
    if mbps is None:
        return "–"
    value = mbps / scale(units)
    text = f"{value:.3f}" if units == "Gbit/s" else f"{value:.1f}"
    return f"{text} {units}" if with_unit else text


def change(before: float | None, after: float | None, units: Units) -> str:
    """`+12.3 Mbit/s (+1.7 %)`, or a dash when either side is missing."""
    if before is None or after is None:
        return "–"
    diff = after - before
    sign = "+" if diff >= 0 else "−"
    share = f"{abs(diff) / before * 100:.1f}" if before else ""
    # a share that rounds to zero has no sign: not "(−0.0 %)" (s11 walk)
    pct = f" ({'' if share == '0.0' else sign}{share} %)" if before else ""
    return f"{sign}{rate(abs(diff), units)}{pct}"


# A figure and its unit ("941.1 Mbit/s", "13.2 %"): a no-break space between them, and a word
# joiner after the unit's slash (Unicode lets a line break there): a wrapping table cell breaks
# between figures, never inside one (s11 walk: "941.1 Mbit/" then "s").
_FIGURE_UNIT = re.compile(r"(\d) (%|ms\b|[kMG]bit/s|[kMG]B/s)")


_NBSP, _WORD_JOINER = "\u00a0", "\u2060"


def keep_together(text: str) -> str:
    return _FIGURE_UNIT.sub(lambda m: m[1] + _NBSP + m[2].replace("/", "/" + _WORD_JOINER), text)
