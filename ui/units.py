"""Throughput figures in the unit the user chose."""

from __future__ import annotations

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
    pct = f" ({sign}{abs(diff) / before * 100:.1f} %)" if before else ""
    return f"{sign}{rate(abs(diff), units)}{pct}"
