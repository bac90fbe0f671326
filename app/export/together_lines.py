"""NICs measured at once in an export: each direction's total over the time every NIC ran,
with the note the command line printed under its Total row (sbctune.measure.together)."""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.advice.aggregate import together_figures
from sbctune.history.records import RunRecord

TITLE = "NICs measured together (the total counts only the time every NIC ran)"


def together_lines(runs: Sequence[RunRecord]) -> list[str]:
    """Per aggregate among `runs` (runs sharing an aggregate id): each direction's sum, as
    `advise` cites it, then the notes kept with the runs (late starters, or why no total)."""
    groups: dict[str, list[RunRecord]] = {}
    for run in runs:
        if run.aggregate_id:
            groups.setdefault(run.aggregate_id, []).append(run)
    lines: list[str] = []
    for found in groups.values():
        if len(found) < 2:
            continue  # one NIC of it in the report: no total to give
        group = sorted(found, key=lambda r: r.id or 0)  # stored in the order NICs were named
        lines.extend(f.cite() for f in together_figures(group))
        notes = (t.together.note for t in group[0].tests if t.together and t.together.note)
        lines.extend(dict.fromkeys(notes))
    return lines
