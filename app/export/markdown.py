"""Markdown for a forum post: the seed-shaped results table, the changes, how it was measured."""

from __future__ import annotations

from pathlib import Path

from sbctune.compare import run_description, run_label
from sbctune.compare.across_nics import across_nics_words
from sbctune.compare.attribution import contributions, drift_words
from sbctune.compare.baseline_words import first_run_warning
from sbctune.compare.state_diff import change_lines
from sbctune.compare.udp import notes as udp_notes
from sbctune.export import tables
from sbctune.export.describe import board_line, method_line
from sbctune.export.report_data import ReportData
from sbctune.export.together_lines import TITLE as TOGETHER_TITLE
from sbctune.export.together_lines import together_lines
from sbctune.history.records import UdpRecord
from sbctune.history.run_tuning import change_text, changed_during_run, held_for_link
from sbctune.textsafe import markdown_text, visible
from sbctune.tuning.words import held_note


def render(data: ReportData) -> str:
    parts = []
    # Board, NIC, chip and driver names come from the Pi: literal text, never markup.
    board = markdown_text(board_line(data, data.runs[-1]))
    parts.append(f"### Network throughput{f': {board}' if board else ''}\n")
    for run in data.runs:
        parts.append(f"- {markdown_text(run_description(run))}: {markdown_text(method_line(run))}")
    parts.append("")
    parts.append(tables.markdown(tables.results_table(data.runs)))
    latency = tables.latency_table(data.runs)
    if latency[1]:  # the Pi's UDP probes to this PC, idle and during each test
        parts.append("\nLatency under load (round trips; added = loaded median − idle median):\n")
        parts.append(tables.markdown(latency))
    verdicts = tables.latency_verdicts(data.runs)
    parts.extend(["", *(f"- {markdown_text(line)}" for line in verdicts)] if verdicts else [])
    together = together_lines(data.runs)
    if together:  # NICs measured at once: the total over the time all of them ran
        parts.append(f"\n{TOGETHER_TITLE}:\n")
        parts.extend(f"- {markdown_text(line)}" for line in together)
    udp = [(run, u) for run in data.runs for u in run.udp]
    if udp:
        parts.append("\nUDP, paced (the receiver's figures):\n")
        parts.extend(f"- {markdown_text(run_label(r))}: {udp_text(u)}" for r, u in udp)
    changed = [f"- {markdown_text(run_label(r))}: {markdown_text(change_text(r))}: not a fair "
               "before or after" for r in data.runs if changed_during_run(r)]  # fmt: skip
    parts.extend(["", *changed] if changed else [])
    if warning := first_run_warning(data.runs):  # a tuned "before" is no baseline
        parts.extend(["", f"- {markdown_text(run_label(data.runs[0]))}: {markdown_text(warning)}"])
    held = list(dict.fromkeys(t for run in data.runs for t in held_for_link(run)))
    parts.extend(["", f"- {markdown_text(held_note(held))}"] if held else [])
    found = contributions(data.runs)
    if found:
        parts.append("\nWhat each tweak did on its own (vs the baseline, 95 % intervals):\n")
        parts.append(tables.markdown(tables.contributions_table(found)))
        if moved := drift_words(found):
            parts.append(f"\n{markdown_text(moved)}")
    if across := across_nics_words(data.runs):  # runs of several NICs: no change between
        parts.append(f"\n{markdown_text(across)}")
    elif len(data.runs) > 1:
        parts.append("\nChange against the first run (95 % interval of the difference of the")
        parts.append("trial means, Welch's t; a change is called beyond 1 % of the first run):\n")
        parts.append(tables.markdown(tables.comparison_table(data.comparison)))
        notes = udp_notes(data.comparison.udp)  # UDP rows: differences, same target only
        parts.extend(["", *(f"- {markdown_text(n)}" for n in notes)] if notes else [])
        for run in data.runs[1:]:  # the Pi's settings that differ (sbctune.compare.state_diff)
            first, this = markdown_text(run_label(data.runs[0])), markdown_text(run_label(run))
            parts.append(f"\nWhat changed on the Pi, {first} → {this}:\n")
            # Keys and values are the Pi's own text: literal, like every other field.
            parts.extend(f"- {markdown_text(line)}" for line in change_lines(data.runs[0], run))
    parts.append("\n(measured with iperf3, sbctune)")
    # A field that missed markdown_text still carries no raw control character.
    return visible("\n".join(parts) + "\n")


def udp_text(u: UdpRecord) -> str:
    """One UDP test in words: direction, target, received rate, jitter, loss, out of order."""
    arrow = "Pi → PC" if u.direction == "pi_to_pc" else "PC → Pi"
    target = f" at {u.target_mbps:g} Mbit/s" if u.target_mbps else ""
    if u.receiver_mbps is None or u.jitter_ms is None or u.lost_percent is None:
        return f"{arrow}{target}: no result"
    text = (
        f"{arrow}{target}: {u.receiver_mbps:.1f} Mbit/s received, jitter {u.jitter_ms:.3f} ms, "
        f"loss {u.lost_percent:.2f} % ({u.lost} of {u.packets} datagrams)"
    )
    return text + (f", {u.out_of_order} out of order" if u.out_of_order is not None else "")


def export(data: ReportData, path: Path) -> Path:
    path.write_text(render(data), encoding="utf-8", newline="\n")
    return path
