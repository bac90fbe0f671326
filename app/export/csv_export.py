"""CSV: one row per run × direction × mode, with the change vs the first run; then a row per
UDP test (mode `udp`: the receiver's jitter, loss and out-of-order count; against the first
run's test at the same target: the received rate's change and the changes in words)."""

from __future__ import annotations

import csv
from pathlib import Path

from sbctune.compare.udp import change_text as udp_change_text
from sbctune.compare.udp import last_udp
from sbctune.export.report_data import ReportData
from sbctune.history.records import RunRecord
from sbctune.history.run_tuning import changed_during_run, tuning_text
from sbctune.measure.latency.stats import group_key, results
from sbctune.textsafe import csv_cell

COLUMNS = [
    "run_id", "device", "started_at", "plan", "nic", "direction", "mode",
    "mean_mbps", "min_mbps", "max_mbps", "per_second_stdev_mbps", "trials",
    "trials_stdev_mbps", "sender_mbps",
    "receiver_mbps", "retransmits", "complete", "delta_mbps", "delta_pct", "noise_mbps",
    "verdict", "trial_means", "change_low_mbps", "change_high_mbps", "verdict_text",
    "latency_idle_p50_ms", "latency_loaded_p50_ms", "latency_loaded_p95_ms", "latency_added_ms",
    "tuning", "tuning_changed_during_run",
    "udp_target_mbps", "jitter_ms", "lost", "packets", "lost_pct", "out_of_order",
]  # fmt: skip


def _num(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return ""
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def rows(data: ReportData) -> list[dict[str, str]]:
    out = []
    for index, run in enumerate(data.runs):
        device = data.devices.get(run.device_id)
        latency = {r.key: r for r in results(run.latency)}  # per kind of load
        device_name = f"{device.user}@{device.host}:{device.port}" if device else ""
        for test in run.tests:
            lat = latency.get(group_key(test.mode, (test.direction,)))
            row = data.comparison.row(test.direction, test.mode)
            cell = row.cells[index] if row else None
            out.append({
                "run_id": str(run.id or ""),
                "device": device_name,
                "started_at": run.started_at.isoformat(),
                "plan": run.plan_name,
                "nic": run.nic or "",
                "direction": test.direction,
                "mode": test.mode,
                "mean_mbps": _num(test.mean_mbps),
                "min_mbps": _num(test.min_mbps),
                "max_mbps": _num(test.max_mbps),
                # walk18: "stdev_mbps" (the seconds' spread, ~15) beside "samples" (3 trials
                # whose means spread ~2): each column now says which spread it is
                "per_second_stdev_mbps": _num(test.stdev_mbps),
                "trials": _num(cell.samples if cell else None),
                "trials_stdev_mbps": _num(cell.trials_stdev_mbps if cell else None),
                "sender_mbps": _num(test.sender_mbps),
                "receiver_mbps": _num(test.receiver_mbps),
                "retransmits": _num(test.retransmits),
                "complete": "yes" if test.complete else "no",
                "delta_mbps": _num(cell.delta_mbps if cell else None),
                "delta_pct": _num(cell.delta_pct if cell else None),
                "noise_mbps": _num(cell.noise_mbps if cell else None),
                "verdict": cell.verdict if cell else "",
                "trial_means": " ".join(f"{m:.2f}" for m in test.trial_means),
                "change_low_mbps": _num(cell.change_low_mbps if cell else None),
                "change_high_mbps": _num(cell.change_high_mbps if cell else None),
                "verdict_text": cell.verdict_text if cell else "",
                "latency_idle_p50_ms": _num(lat.idle.p50 if lat else None),
                "latency_loaded_p50_ms": _num(lat.loaded.p50 if lat else None),
                "latency_loaded_p95_ms": _num(lat.loaded.p95 if lat else None),
                "latency_added_ms": _num(lat.added_ms if lat else None),
                "tuning": tuning_text(run),  # as read back from the Pi, never as planned
                "tuning_changed_during_run": "yes" if changed_during_run(run) else "no",
            })  # fmt: skip
        out.extend(_udp_rows(run, device_name, _udp_changes(data, run, index)))
    return out


def _udp_changes(data: ReportData, run: RunRecord, index: int) -> dict[int, dict[str, str]]:
    """Per UDP test compared with the first run's (same target): its change columns."""
    out = {}
    for row in data.comparison.udp:
        cell = row.cells[index] if index > 0 else None
        test = last_udp(run, row.direction)
        if cell is not None and cell.compared and test is not None:
            out[id(test)] = {
                "delta_mbps": _num(cell.delta_received_mbps),
                "verdict_text": udp_change_text(cell, row),
            }
    return out


def _udp_rows(
    run: RunRecord, device: str, changes: dict[int, dict[str, str]]
) -> list[dict[str, str]]:
    return [
        dict.fromkeys(COLUMNS, "") | {
            "run_id": str(run.id or ""), "device": device,
            "started_at": run.started_at.isoformat(), "plan": run.plan_name,
            "nic": run.nic or "", "direction": u.direction, "mode": "udp",
            "receiver_mbps": _num(u.receiver_mbps), "complete": "yes" if u.complete else "no",
            "udp_target_mbps": _num(u.target_mbps), "jitter_ms": _num(u.jitter_ms, 3),
            "lost": _num(u.lost), "packets": _num(u.packets), "lost_pct": _num(u.lost_percent),
            "out_of_order": _num(u.out_of_order),
        } | changes.get(id(u), {})
        for u in run.udp
    ]  # fmt: skip


def export(data: ReportData, path: Path) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        # Names come from the Pi (an interface may be called `=HYPERLINK(…)`): guarded cells.
        writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows(data))
    return path
