"""Tables shared by the text formats: seed-shaped results (Direction | One way | Both ways |
Both ways, PC held back: seed 000's layout in the app's words) and the comparison: changes,
95 % intervals, verdicts."""

from __future__ import annotations

from sbctune.compare import Cell, Comparison, find_test, run_description, run_label
from sbctune.compare.attribution import Contribution
from sbctune.compare.interval import signed
from sbctune.compare.latency import cell_text as latency_cell
from sbctune.compare.latency import change_text as latency_change
from sbctune.compare.udp import cell_text as udp_cell
from sbctune.compare.udp import change_text as udp_change
from sbctune.compare.udp import mode_text as udp_mode
from sbctune.history.records import DIRECTIONS, MODES, Mode, RunRecord, TestRecord
from sbctune.measure.latency.report import HEADER as LATENCY_HEADER
from sbctune.measure.latency.report import notes as latency_notes
from sbctune.measure.latency.report import row as latency_row
from sbctune.measure.latency.stats import results as latency_results
from sbctune.measure.plans import DIRECTION_LABEL
from sbctune.textsafe import markdown_text
from sbctune.tuning.words import tweak_title
from sbctune.wording import mode_words

Table = tuple[list[str], list[list[str]]]


def mbps_text(value: float | None) -> str:
    return "—" if value is None else f"{value:.0f} Mbit/s"


def test_text(test: TestRecord | None) -> str:
    """A result cell as the seeds write it; the same wording as sbctune.measure.table."""
    if test is None:
        return ""
    if test.mean_mbps is None:
        return "—"
    return mbps_text(test.mean_mbps) + ("" if test.complete else " (incomplete)")


def modes_of(runs: list[RunRecord]) -> list[Mode]:
    return [m for m in MODES if any(t.mode == m for r in runs for t in r.tests)]


def change_text(cell: Cell) -> str:
    if cell.verdict == "baseline":
        return "baseline"
    if cell.verdict == "missing" or cell.delta_mbps is None:
        return "—"
    pct = f" ({signed(cell.delta_pct, 1)} %)" if cell.delta_pct is not None else ""
    change = f"{signed(cell.delta_mbps)} Mbit/s{pct}"  # the interval's minus, no signed zero
    # The verdict with its 95 % interval (sbctune.compare.interval), e.g. "faster by 60 to 110
    # Mbit/s" or "no change detected (−15 to +25)".
    return f"{change}, {cell.verdict_text or 'no interval'}"


def results_table(runs: list[RunRecord]) -> Table:
    """Seed 000's layout: one block per run (a group row naming it), one row per direction."""
    modes = modes_of(runs)
    header = ["Direction", *(mode_words(m) for m in modes)]
    rows: list[list[str]] = []
    for run in runs:
        if len(runs) > 1:
            rows.append([run_description(run)])
        for direction in DIRECTIONS:
            cells = [test_text(find_test(run, direction, m)) for m in modes]
            rows.append([DIRECTION_LABEL[direction], *cells])
    if len(runs) > 1:
        header = ["Run", *header]
        rows = [row if len(row) == 1 else ["", *row] for row in rows]
    return header, rows


def comparison_table(comparison: Comparison, *, with_change: bool = True) -> Table:
    """`with_change` False: runs of several NICs side by side, each titled with its NIC and
    no "vs" column (sbctune.compare.across_nics: a difference between ports is no change)."""
    first = comparison.runs[0].label
    header = ["Direction", "Mode", first]
    for run in comparison.runs[1:]:
        header += [run.label, f"{run.label} vs {first}"]
    rows = []
    for row in comparison.rows:
        cells = [DIRECTION_LABEL[row.direction], mode_words(row.mode), mbps_text(row.cells[0].mbps)]
        for cell in row.cells[1:]:
            cells += [mbps_text(cell.mbps), change_text(cell)]
        rows.append(cells)
    rows += latency_table_rows(comparison)
    rows += udp_table_rows(comparison)
    if with_change:
        return header, rows
    # the "vs" columns are every other one after the first run's (4, 6, 8 ...)
    keep = [i for i in range(len(header)) if i < 4 or i % 2 == 1]
    nics = [run.nic for run in comparison.runs]
    titles = [
        f"{r.label} {n}" if n else r.label for r, n in zip(comparison.runs, nics, strict=True)
    ]
    return ["Direction", "Mode", *titles], [[r[i] for i in keep if i < len(r)] for r in rows]


def latency_table_rows(comparison: Comparison) -> list[list[str]]:
    """The "latency" rows under the throughput ones: added latency under load, per load."""
    rows = []
    for row in comparison.latency:
        cells = [row.label, "Latency under load", latency_cell(row.cells[0])]
        for cell in row.cells[1:]:
            cells += [latency_cell(cell), latency_change(cell)]
        rows.append(cells)
    return rows


def udp_table_rows(comparison: Comparison) -> list[list[str]]:
    """The UDP rows last: received rate, jitter and loss, and the change at the same target."""
    rows = []
    for row in comparison.udp:
        cells = [row.label, udp_mode(row), udp_cell(row.cells[0], row)]
        for cell in row.cells[1:]:
            cells += [udp_cell(cell, row), udp_change(cell, row)]
        rows.append(cells)
    return rows


def latency_table(runs: list[RunRecord]) -> Table:
    """Idle vs loaded round trips per kind of load, for each run that measured them."""
    measured = [r for r in runs if latency_results(r.latency)]
    rows: list[list[str]] = []
    for run in measured:
        if len(measured) > 1:
            rows.append([run_description(run)])
        rows += [latency_row(r) for r in latency_results(run.latency)]
    return list(LATENCY_HEADER), rows


def latency_verdicts(runs: list[RunRecord]) -> list[str]:
    """One sentence per kind of load (and why latency was not measured, where it was not)."""
    out = []
    for run in runs:
        prefix = f"{run_label(run)}: " if len(runs) > 1 else ""
        out += [prefix + r.verdict() for r in latency_results(run.latency)]
        out += [prefix + n for n in latency_notes(run.latency)]
    return out


def markdown(table: Table) -> str:
    header, rows = table
    # Every cell is literal text (run names and notes may come from a Pi or the user).
    lines = [
        "| " + " | ".join(markdown_text(c) for c in header) + " |",
        "|" + " --- |" * len(header),
    ]
    for row in rows:
        lines.append("| " + " | ".join(markdown_text(cell) for cell in row) + " |")
    return "\n".join(lines)


def text(table: Table) -> str:
    header, rows = table
    full = [r for r in rows if len(r) == len(header)]
    widths = [max(len(r[i]) for r in [header, *full]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        if len(row) != len(header):  # a group row: the run's name across the table
            return row[0]
        return "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()

    return "\n".join([fmt(header), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)])


def contributions_table(contributions: list[Contribution]) -> Table:
    """What each tweak did alone ("Find what helps"): per direction, its change vs the
    baseline with the 95 % interval, and whether it is kept."""
    labels = list(dict.fromkeys(e.label for c in contributions for e in c.effects))
    header = ["Tweak", "Run", *labels, "Kept"]
    rows = []
    for c in contributions:
        texts = {e.label: e.text for e in c.effects}
        kept = "yes: it helped" if c.helps else "no: reverted"
        if c.changed_during_run:
            kept = "no: its tuning changed during the run"
        rows.append(
            [
                tweak_title(c.tweak_id),
                str(c.run_id or ""),
                *(texts.get(k, "") for k in labels),
                kept,
            ]
        )
    return header, rows
