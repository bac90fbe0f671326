"""Everything an export shows, gathered once from the history: runs, their devices and
inventories, the tuning sessions in force, the comparison, findings and recommendations."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from sbctune.advice import advise
from sbctune.advice.stored import inventory_from_json
from sbctune.catalog import load_catalog
from sbctune.compare import Comparison, compare
from sbctune.compare.calibration import calibration_for
from sbctune.errors import UserError
from sbctune.history import History, NotFound
from sbctune.history.records import DeviceRecord, RunRecord, TuningSessionRecord
from sbctune.inventory.model import Finding, Recommendation

log = logging.getLogger(__name__)


@dataclass
class ReportData:
    runs: list[RunRecord]
    devices: dict[int, DeviceRecord]
    inventories: dict[int, dict[str, Any]]  # inventory id -> contract 2 JSON
    tuning_sessions: list[TuningSessionRecord]
    comparison: Comparison
    findings: list[Finding] = field(default_factory=list)
    recommendations: list[Recommendation] = field(default_factory=list)
    advice_source: str = "none"  # "advise" (measurements + inventory), "inventory" or "none"
    created: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    def inventory_id_for(self, run: RunRecord) -> int | None:
        if run.inventory_id is not None:
            return run.inventory_id
        device = self.devices.get(run.device_id)
        return device.last_inventory_id if device else None

    def inventory_for(self, run: RunRecord) -> dict[str, Any] | None:
        inventory_id = self.inventory_id_for(run)
        return self.inventories.get(inventory_id) if inventory_id is not None else None

    def tuning_session_for(self, run: RunRecord) -> TuningSessionRecord | None:
        """The session whose tweaks were in force while the run measured."""
        wanted = (run.tuning_state or {}).get("session")
        if wanted is None:
            return None
        return next((s for s in self.tuning_sessions if s.data.get("id") == wanted), None)


def parse_run_ids(texts: list[str]) -> list[int]:
    ids = []
    for text in texts:
        try:
            ids.append(int(text.removeprefix("#")))
        except ValueError:
            raise UserError(
                f"{text!r} is not a run id.",
                "Run ids are the numbers “sbctune history” lists in its first column.",
            ) from None
    return ids


def load_runs(history: History, run_ids: list[int]) -> list[RunRecord]:
    runs = []
    for run_id in run_ids:
        try:
            runs.append(history.run(run_id))
        except NotFound:
            raise UserError(
                f"There is no run {run_id} in the history.",
                "“sbctune history” lists the runs with their ids.",
            ) from None
    return runs


def _sessions(
    history: History, runs: list[RunRecord], session_id: str | None
) -> list[TuningSessionRecord]:
    """Sessions named by the runs' tuning state, or the one asked for, or (for before/after
    pairs) the ones started while the runs were being taken."""
    known: dict[int, TuningSessionRecord] = {}
    device_ids = list(dict.fromkeys(r.device_id for r in runs))
    for device_id in device_ids:
        for record in history.tuning_sessions(device_id):
            assert record.id is not None
            known[record.id] = record
    if session_id is not None:
        wanted = [s for s in known.values() if session_id in (s.data.get("id"), str(s.id))]
        if not wanted:
            raise UserError(
                f"There is no tuning session {session_id!r} for the device of these runs.",
                "“sbctune history HOST” lists the device's tuning sessions.",
            )
        return wanted
    named = {(r.tuning_state or {}).get("session") for r in runs} - {None}
    first = min(r.started_at for r in runs)
    last = max(r.finished_at or r.started_at for r in runs)
    return sorted(
        (s for s in known.values() if s.data.get("id") in named or first <= s.started_at <= last),
        key=lambda s: s.started_at,
    )


def _advice(data: ReportData) -> None:
    """Findings and recommendations from sbctune.advice on the last device's inventory and
    runs; the stored inventory's own (static) advice if that fails."""
    last = data.runs[-1]
    inventory_json = data.inventory_for(last)
    if inventory_json is None:
        return
    inventory = inventory_from_json(inventory_json)
    device_runs = [r for r in data.runs if r.device_id == last.device_id]
    try:
        advice = advise(inventory, device_runs, load_catalog())
    except Exception:  # advice must not stop an export of figures already measured
        log.exception("advice failed; using the stored inventory's findings")
        data.findings = inventory.findings
        data.recommendations = inventory.recommendations
        data.advice_source = "inventory"
        return
    data.findings = list(advice.findings)
    data.recommendations = list(advice.recommendations)
    data.advice_source = "advise"


def gather(
    history: History, run_ids: list[int], *, tuning_session: str | None = None
) -> ReportData:
    runs = load_runs(history, run_ids)
    devices = {d: history.device(d) for d in dict.fromkeys(r.device_id for r in runs)}
    data = ReportData(
        runs=runs,
        devices=devices,
        inventories={},
        tuning_sessions=_sessions(history, runs, tuning_session),
        comparison=compare(runs, calibration_for(history, runs)),
    )
    for run in runs:
        inventory_id = data.inventory_id_for(run)
        if inventory_id is not None and inventory_id not in data.inventories:
            with contextlib.suppress(NotFound):  # deleted since: the report says "unknown"
                data.inventories[inventory_id] = history.inventory(inventory_id)
    _advice(data)
    return data
