"""The comparison in a sentence per direction and mode, for the one-click flow and the CLI."""

from __future__ import annotations

from sbctune.compare.latency import change_text
from sbctune.compare.model import Comparison
from sbctune.history.run_tuning import CHANGED
from sbctune.measure.plans import DIRECTION_LABEL, MODE_WORDS


def verdict_lines(comparison: Comparison) -> list[str]:
    """The last run against the first: "Pi → PC half-duplex: faster by 60 to 110 Mbit/s"."""
    lines = [f"{r.label}: {CHANGED}: its figures are not a fair before or after"
             for r in comparison.runs if r.tuning_changed]  # fmt: skip
    for row in comparison.rows:
        if len(row.cells) < 2 or not row.cells[-1].verdict_text:
            continue
        what = f"{DIRECTION_LABEL[row.direction]} {MODE_WORDS[row.mode]}"
        lines.append(f"{what}: {row.cells[-1].verdict_text}")
    for latency in comparison.latency:  # the last run's latency under load, and its change
        cell = latency.cells[-1] if len(latency.cells) > 1 else None
        if cell is not None:
            change = change_text(cell)
            lines.append(cell.verdict + (f" ({change})" if change != "—" else ""))
    return lines
