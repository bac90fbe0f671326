"""`sbctune compare RUN RUN...`: per direction and mode, each run's figure, the change against
the first run as a 95 % interval from the runs' trials, and a verdict in words."""

from __future__ import annotations

import argparse
import json
from textwrap import fill

from sbctune.cli.fit import fit, table_fit, terminal_width
from sbctune.cli.in_force import cli_hint, device_target
from sbctune.compare import compare, run_description, run_label
from sbctune.compare.across_nics import across_nics_words
from sbctune.compare.calibration import calibration_for
from sbctune.compare.state_diff import change_lines, state_changes
from sbctune.compare.udp import notes as udp_notes
from sbctune.errors import UserError
from sbctune.export import load_runs, parse_run_ids
from sbctune.export.tables import comparison_table, text
from sbctune.export.together_lines import TITLE as TOGETHER_TITLE
from sbctune.export.together_lines import together_lines
from sbctune.history import History
from sbctune.history.run_tuning import change_text, changed_during_run
from sbctune.workflow.baseline_check import before_after, is_fair_baseline


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "compare",
        help="compare two or more runs: changes and whether they exceed noise",
        description="Compare measurement runs (before/after tuning, adapter A vs B, board vs "
        "board): each direction and mode, the change against the first run, and whether it "
        "is more than run-to-run noise. Run ids come from “sbctune history”.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN", help="run ids; the first is the baseline")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=_compare)


def _compare(args: argparse.Namespace) -> int:
    ids = parse_run_ids(args.runs)
    if len(ids) < 2:
        raise UserError("Compare needs two or more runs.", "e.g. “sbctune compare 3 7”")
    with History.open() as history:
        runs = load_runs(history, ids)
        calibration = calibration_for(history, runs)
        first_pi = device_target(history.device(runs[0].device_id))
    comparison = compare(runs, calibration)
    # The first run is the "before": one measured with tuning in force is not a baseline.
    fair = is_fair_baseline(runs[0])
    note = ""  # a run whose tuning changed while it ran is warned of below
    if not fair and not changed_during_run(runs[0]):
        note = before_after(runs[0], runs[-1], cli_hint(target=first_pi)).note
    if args.json:
        data = comparison.to_json()
        data["first_run_is_baseline"] = fair
        data["not_a_baseline"] = note or None
        data["pi_state_changes"] = {
            str(run.id): [vars(c) for c in state_changes(runs[0], run)] for run in runs[1:]
        }
        print(json.dumps(data, indent=2))
        return 0
    for run in runs:  # fit: "run 2 · … · with tuning in force" was 88 columns (walk 24)
        print(fit(run_description(run)))
    for run in runs:  # never silently the "before" or "after" of a comparison
        if changed_during_run(run):
            print(
                fit(f"WARNING: {run_label(run)}: {change_text(run)}: not a fair before or after.")
            )
    if note:
        print(fit(f"WARNING: {note}"))
    print()
    if across := across_nics_words(runs):  # runs of several NICs: side by side, no change
        print(fill(across, 79) + "\n")
        table = comparison_table(comparison, with_change=False)
        print(table_fit(table, text(table), terminal_width()))
        together = together_lines(runs)
        if together:
            print(fit(["", TOGETHER_TITLE + ":", *(f"  {line}" for line in together)]))
        return 0
    table = comparison_table(comparison)
    print(table_fit(table, text(table), terminal_width()))
    for note in udp_notes(comparison.udp):  # UDP rows: differences, same target only
        print(fit(note))
    for run in runs[1:]:
        print(f"\nWhat changed on the Pi, {run_label(runs[0])} → {run_label(run)}:")
        for line in change_lines(runs[0], run):
            print(fit(f"  {line}"))
    # one paragraph, fit to the terminal: broken by hand at 81 columns it was cut at 80 (walk 24)
    print()
    print(fit(
        "Each change comes with its 95 % interval from the runs' trials (Welch's t). It is "
        "called faster or slower only when the whole interval lies beyond 1 % of the first "
        "run's figure"
        + (" or this Pi's A/A run-to-run spread, whichever is larger." if calibration else ".")
    ))  # fmt: skip
    return 0
