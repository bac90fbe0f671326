"""The results table shaped like seed 000's, in the window's words: Direction | One way | Both
ways | Both ways, PC held back, in Mbit/s, as text or Markdown; then a line per UDP test."""

from __future__ import annotations

from sbctune.measure.outcome import DirectionOutcome, MeasureRun
from sbctune.measure.plans import DIRECTION_LABEL, DIRECTIONS, MODE_LABEL, Mode
from sbctune.wording import counted

_MODES: tuple[Mode, ...] = ("half", "full", "full_throttled")


def _cell(run: MeasureRun, direction: str, mode: Mode) -> str:
    outcome = next((t for t in run.tests if t.direction == direction and t.mode == mode), None)
    if outcome is None:
        return ""
    if outcome.mean_mbps is None:
        return "failed" if outcome.error else "—"
    mark = "" if outcome.complete else " (incomplete)"
    trials = outcome.trial_means
    if len(trials) > 1:  # the trials' spread: how far one trial can be from another
        mark += f" ({counted(len(trials), 'trial')}, {min(trials):.0f}–{max(trials):.0f})"
    return f"{outcome.mean_mbps:.0f} Mbit/s{mark}"


def nic_words(run: MeasureRun) -> str:
    """The NIC under test as the window's cards title it: "eth1 · RTL8125/RTL8126 ..."."""
    name = run.nic or "the route's NIC (not read)"
    return f"{name} · {run.nic_chip}" if run.nic_chip else name


def markdown(run: MeasureRun) -> str:
    modes = [m for m in _MODES if any(t.mode == m for t in run.tests)]
    lines = [
        "| Direction | " + " | ".join(MODE_LABEL[m] for m in modes) + " |",
        "| --- |" + " ---- |" * len(modes),
    ]
    for direction in DIRECTIONS:
        cells = [_cell(run, direction, m) for m in modes]
        lines.append(f"| {DIRECTION_LABEL[direction]} | " + " | ".join(cells) + " |")
    return "\n".join(lines + udp_lines(run))


def text(run: MeasureRun) -> str:
    modes = [m for m in _MODES if any(t.mode == m for t in run.tests)]
    header = ["Direction", *(MODE_LABEL[m] for m in modes)]
    rows = [[DIRECTION_LABEL[d], *(_cell(run, d, m) for m in modes)] for d in DIRECTIONS]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))

    table = [fmt(header), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)]
    return "\n".join(table + udp_lines(run))


def udp_line(t: DirectionOutcome) -> str:
    """One UDP test as a sentence: the rate received, jitter, loss, out-of-order datagrams."""
    target = f" at {t.udp_target_mbps:g} Mbit/s" if t.udp_target_mbps else ""
    head = f"UDP {DIRECTION_LABEL[t.direction]}{target}: "
    if t.receiver_mbps is None or t.lost_percent is None or t.jitter_ms is None:
        return head + (f"failed ({t.error})" if t.error else "no result")
    parts = [
        f"{t.receiver_mbps:.1f} Mbit/s received",
        f"jitter {t.jitter_ms:.3f} ms",
        f"loss {t.lost_percent:.2f} % ({t.lost} of {t.packets} datagrams)",
    ]
    if t.out_of_order is not None:
        parts.append(f"{t.out_of_order} out of order")
    return head + ", ".join(parts) + ("" if t.complete else " (incomplete)")


def udp_lines(run: MeasureRun) -> list[str]:
    return ["", *(udp_line(t) for t in run.udp)] if run.udp else []
