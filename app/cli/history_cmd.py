"""`sbctune history [HOST]`: the devices, their runs (ids, dates, plan, NIC, headline figures)
and tuning sessions kept in the history."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sbctune.cli.fit import fit, terminal_width
from sbctune.compare import find_test
from sbctune.errors import UserError
from sbctune.export.describe import tweak_title
from sbctune.export.tables import Table, text
from sbctune.history import DeviceRecord, History, RunRecord, TuningSessionRecord
from sbctune.history.run_tuning import RUN_STATE_WORDS, changed_during_run, tuning_text
from sbctune.measure.plans import plan_title
from sbctune.remote import parse_target
from sbctune.tuning.words import outcome_counts
from sbctune.wording import counted
from sbctune.workflow.baseline_check import in_force_mark, is_fair_baseline
from sbctune.workflow.rules import kept_in_data


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "history",
        help="list the devices, runs and tuning sessions kept in the history",
        description="List what sbctune kept: each device, its measurement runs (with the ids "
        "“compare” and “export” take) and its tuning sessions. Newest first.",
    )
    parser.add_argument(
        "host",
        nargs="?",
        metavar="HOST",
        help="only this device: the address you connected to (with the user and port if you "
        "gave them), its name, or its device id",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=_history)


def select_devices(history: History, spec: str | None) -> list[DeviceRecord]:
    devices = history.devices()
    if spec is None:
        return devices
    if spec.isascii() and spec.isdigit():
        found = [d for d in devices if d.id == int(spec)]
    else:
        user, host, port = parse_target(spec)
        port_given = spec.rstrip().endswith(f":{port}")
        found = [
            d
            for d in devices
            if (d.host == host and user in (None, d.user) and (not port_given or d.port == port))
            or (d.name or "").lower() == spec.strip().lower()
        ]
    if not found:
        known = ", ".join(f"{d.user}@{d.host}:{d.port}" for d in devices) or "none yet"
        raise UserError(
            f"The history has no device {spec!r}.",
            f"Devices in the history: {known}. Measure one with “sbctune measure HOST”.",
        )
    return found


def _figure(run: RunRecord, direction: str, mode: str) -> str:
    test = find_test(run, direction, mode)  # type: ignore[arg-type]
    if test is None:
        return ""
    if test.mean_mbps is None:
        return "—"
    return f"{test.mean_mbps:.0f}" + ("" if test.complete else "?")


def headline(run: RunRecord) -> dict[str, dict[str, float | None]]:
    figures: dict[str, dict[str, float | None]] = {}
    for test in run.tests:
        figures.setdefault(test.direction, {})[test.mode] = test.mean_mbps
    return figures


def _tuning_text(run: RunRecord) -> str:
    """A run read back as tuned says so first: it is never to be taken for a baseline."""
    mark = None if changed_during_run(run) else in_force_mark(run)
    return f"{mark}; {tuning_text(run)}" if mark else tuning_text(run)


def runs_table(runs: list[RunRecord]) -> Table:
    header = ["Run", "Started", "Plan", "NIC", "Pi→PC", "PC→Pi", "Both ways Pi→PC/PC→Pi", "Tuning"]
    rows = []
    for run in runs:
        full = "/".join(x for x in (_figure(run, d, "full") for d in ("pi_to_pc", "pc_to_pi")))
        rows.append([
            str(run.id), run.started_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            plan_title(run.plan_name, run.plan) + ("" if run.complete else " (incomplete)"),
            run.nic or "?",
            _figure(run, "pi_to_pc", "half"), _figure(run, "pc_to_pi", "half"),
            full if full != "/" else "", _tuning_text(run),
        ])  # fmt: skip
    return header, rows


def runs_lines(table: Table, width: int | None) -> list[str]:
    """The runs as a table, indented; where the table is wider than the terminal (walk s23: 170
    columns at 80, every row cut by the terminal), each run as a few lines of its own: its
    number, start, NIC and tuning, then its plan, then its figures by name."""
    lines = ["  " + line for line in text(table).splitlines()]
    if width is None or max(len(line) for line in lines) < width:
        return lines
    header, rows = table
    out = []
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        figures = [f"{name} {cells[name]}" for name in header[4:7] if cells[name]]
        out += fit([f"  Run {cells['Run']}  {cells['Started']}  NIC {cells['NIC']}  "
                    f"{cells['Tuning']}", f"    {cells['Plan']}",
                    "    " + ("  ".join(figures) or "no figures")], width).splitlines()  # fmt: skip
    return out


def _session_line(record: TuningSessionRecord) -> str:
    """E.g. "tuning session 3: kept, 2026-11-28 18:00, 8 tweaks: 2 changed, 4 already in
    force, 2 not possible (in force: ...)": counted by what each tweak read back, so a tweak
    that was already so is not called applied (s12 walk: "6 of 8 tweaks applied")."""
    raw = record.data.get("tweaks")
    tweaks = [t for t in raw if isinstance(t, dict)] if isinstance(raw, list) else []
    kept = kept_in_data(tweaks)
    when = record.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
    counts = outcome_counts((str(t.get("status")), str(t.get("detail") or "")) for t in tweaks)
    state = str(record.state)[:40]
    # A reverted session's tweaks are gone: say what it had done, not "in force".
    gone = state.startswith("revert")
    return (
        f"  tuning session {record.data.get('id', record.id)}: "
        f"{RUN_STATE_WORDS.get(state, state)}, {when}, {counted(len(tweaks), 'tweak')}"
        + (" before they were put back" if gone else "") + f": {counts}"
        + (f" ({'then ' if gone else ''}in force: {', '.join(tweak_title(str(k)) for k in kept)})"
           if kept else "")
    )  # fmt: skip


def _device_json(history: History, device: DeviceRecord) -> dict[str, Any]:
    assert device.id is not None
    return {
        "id": device.id,
        "host": device.host,
        "port": device.port,
        "user": device.user,
        "name": device.name,
        "first_seen": device.first_seen.isoformat(),
        "last_seen": device.last_seen.isoformat(),
        "runs": [
            {
                "id": r.id,
                "started_at": r.started_at.isoformat(),
                "plan": r.plan_name,
                "plan_title": plan_title(r.plan_name, r.plan),  # as the text and the GUI say it
                "nic": r.nic,
                "complete": r.complete,
                "tuning_state": r.tuning_state,
                "baseline": is_fair_baseline(r),  # no tuning in force or changing, read back
                "mbps": headline(r),
            }
            for r in history.runs_for_device(device.id)
        ],
        "tuning_sessions": [
            {
                "id": s.id,
                "session": s.data.get("id"),
                "state": s.state,
                "started_at": s.started_at.isoformat(),
            }
            for s in history.tuning_sessions(device.id)
        ],
    }


def _history(args: argparse.Namespace) -> int:
    with History.open() as history:
        devices = select_devices(history, args.host)
        if args.json:
            print(json.dumps({"devices": [_device_json(history, d) for d in devices]}, indent=2))
            return 0
        if not devices:
            print("The history is empty: “sbctune measure HOST” adds the first run.")
            return 0
        for index, device in enumerate(devices):
            assert device.id is not None
            if index:
                print()
            name = f"  {device.name}" if device.name else ""
            seen = device.last_seen.astimezone().strftime("%Y-%m-%d %H:%M")
            print(f"Device {device.id}: {device.user}@{device.host}:{device.port}{name}"
                  f"  (last seen {seen})")  # fmt: skip
            runs = history.runs_for_device(device.id)
            if runs:
                print("\n".join(runs_lines(runs_table(runs), terminal_width())))
            else:
                print("  no runs yet")
            for record in history.tuning_sessions(device.id):
                print(fit(_session_line(record)))
    print("\nFigures in Mbit/s (one way unless marked both ways; '?' = incomplete test).")
    # two lines: as one it was 81 columns and an 80-column terminal cut it (walk 24)
    print("Compare: sbctune compare RUN RUN…\nExport:  sbctune export RUN… -f html -o r.html")
    return 0
