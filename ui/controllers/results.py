"""Rows for the before/after and history comparisons, from the runs as the history stored them."""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.compare import compare
from sbctune.compare.across_nics import across_nics as across_nics  # re-exported for History
from sbctune.compare.across_nics import across_nics_words as across_nics_words
from sbctune.compare.across_nics import run_label as run_label
from sbctune.compare.latency import LatencyRow
from sbctune.compare.latency import latency_rows as _latency_rows
from sbctune.compare.udp import UdpRow
from sbctune.compare.udp import udp_rows as _udp_rows
from sbctune.export.together_lines import together_lines as _together_lines
from sbctune.history.records import Direction, Mode, RunRecord
from sbctune.workflow.keeping import decide, on_trial_words


@dataclass(frozen=True)
class ResultRow:
    """One direction × mode across runs: the mean per run (None: that run did not test it)."""

    direction: Direction
    mode: Mode
    values: list[float | None]
    significant: bool | None = None  # from sbctune.compare: the change is beyond noise
    # Per run, the half-width of the 95 % interval of its mean, from its trials (error bars).
    half_widths: list[float | None] | None = None
    verdict_text: str = ""  # the last run vs the first: "faster by 60 to 110 Mbit/s", ...


def result_rows(
    runs: list[RunRecord], calibration: dict[str, float] | None = None
) -> list[ResultRow]:
    """`calibration`: this Pi's A/A run-to-run spread, the floor a change must clear
    (RecordsController.calibration)."""
    keys: list[tuple[Direction, Mode]] = []
    for run in runs:
        for test in run.tests:
            if (test.direction, test.mode) not in keys:
                keys.append((test.direction, test.mode))
    compared = {(r.direction, r.mode): r for r in compare(runs, calibration).rows} if runs else {}
    rows = []
    for direction, mode in keys:
        values: list[float | None] = []
        for run in runs:
            found = [t for t in run.tests if t.direction == direction and t.mode == mode]
            values.append(found[0].mean_mbps if found else None)
        row = compared.get((direction, mode))
        last = row.cells[-1] if row is not None and len(runs) > 1 else None
        known = last is not None and last.verdict not in ("unknown", "missing")
        rows.append(
            ResultRow(
                direction,
                mode,
                values,
                last.significant if last is not None and known else None,
                [c.half_width_mbps for c in row.cells] if row is not None else None,
                last.verdict_text if last is not None else "",
            )
        )
    return rows


def latency_rows(runs: list[RunRecord]) -> list[LatencyRow]:
    """Per kind of load, each run's added latency under load and its change (the rows that
    `sbctune compare` prints under "Latency under load")."""
    return _latency_rows(runs)


def udp_rows(runs: list[RunRecord]) -> list[UdpRow]:
    """Per direction, each run's UDP test and the change at the same target rate (the UDP
    rows of `sbctune compare`)."""
    return _udp_rows(runs)


def on_trial_verdict(runs: list[RunRecord], calibration: dict[str, float] | None) -> str:
    """Tuning on trial, measured by hand (the last run against the first): what the keep rule
    says of it, in words ("" with fewer than two runs)."""
    if len(runs) < 2:
        return ""
    return on_trial_words(decide(compare(runs, calibration), runs[-1]))


def together_lines(runs: list[RunRecord]) -> list[str]:
    """The aggregate totals over the seconds every NIC ran together, and their notes, for the
    runs compared (as the exports say them)."""
    return _together_lines(runs)
