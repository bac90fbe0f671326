"""Live progress lines shared by the commands that measure (`measure`, `demo`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from sbctune.cli.fit import fit, terminal_width
from sbctune.measure.iperf_output import Direction
from sbctune.measure.outcome import DirectionOutcome, Interval
from sbctune.measure.plans import DIRECTION_LABEL


def say(text: str) -> None:
    """Progress goes to stderr, so stdout stays the result (a table or JSON); fit to the
    terminal (four NICs' live line with the busiest core ran to 151 columns, walk 22)."""
    print(fit(text, terminal_width(sys.stderr)), file=sys.stderr, flush=True)


def say_one_line(forms: Sequence[str]) -> None:
    """A live line once per second: the first of `forms` (fullest first) that fits the
    terminal on one line; a live line wrapped to two read as two seconds (walk 24: "lab host
    busiest: cpu0 100% (irq+softirq 0%)" went to a line of its own at 80 columns). A pipe or a
    file, and a terminal wide enough, get the first form; none fitting, the last is wrapped."""
    width = terminal_width(sys.stderr)
    chosen = next((f for f in forms if width is None or len(f) < width), forms[-1])
    print(fit(chosen, width), file=sys.stderr, flush=True)


def interval_line(direction: Direction, interval: Interval, figures: str, extra: str = "") -> str:
    omitted = " (omitted)" if interval.omitted else ""
    return f"    {interval.t:5.1f} s  {DIRECTION_LABEL[direction]}  {figures}{omitted}{extra}"


def outcome_lines(outcomes: Iterable[DirectionOutcome], prefix: str = "") -> list[str]:
    lines = []
    for outcome in outcomes:
        figure = f"{outcome.mean_mbps:.1f} Mbit/s" if outcome.mean_mbps is not None else "-"
        extra = f" ({outcome.error})" if outcome.error else ""
        lines.append(f"    = {prefix}{DIRECTION_LABEL[outcome.direction]}: {figure}{extra}")
    return lines
