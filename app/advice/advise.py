"""`advise()`: the inventory's own findings plus what the measurements show, ranked."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sbctune.advice.aggregate import aggregate_advice
from sbctune.advice.knowledge import Knowledge, load_knowledge
from sbctune.advice.measured import measured_advice
from sbctune.advice.rank import expected_gain, merge
from sbctune.advice.reach import within_reach
from sbctune.advice.runs import digest
from sbctune.advice.tried import with_measured
from sbctune.catalog import Catalog
from sbctune.history.records import RunRecord, TuningSessionRecord
from sbctune.inventory.model import Finding, Inventory, Recommendation

_SEVERITY = {"problem": 0, "warning": 1, "info": 2}
_DONE = {"applied", "already"}


@dataclass
class Advice:
    findings: list[Finding] = field(default_factory=list)
    recommendations: list[Recommendation] = field(default_factory=list)  # best first
    notes: list[str] = field(default_factory=list)  # what limited the advice

    @property
    def top(self) -> Recommendation | None:
        return self.recommendations[0] if self.recommendations else None

    def to_json(self) -> dict[str, Any]:
        from dataclasses import asdict

        return {
            "findings": [asdict(f) for f in self.findings],
            "recommendations": [
                asdict(r) | {"rank": i + 1, "expected_gain_mbps": expected_gain(r)}
                for i, r in enumerate(self.recommendations)
            ],
            "notes": list(self.notes),
        }


def applied_tweaks(tuning: object) -> set[str]:
    """Tweak ids in force, from a TuningSessionRecord, its `data` dict, or a list of them."""
    sessions: Iterable[object]
    if tuning is None:
        return set()
    sessions = tuning if isinstance(tuning, (list, tuple)) else [tuning]
    done: set[str] = set()
    for session in sessions:
        data = session.data if isinstance(session, TuningSessionRecord) else session
        if isinstance(session, TuningSessionRecord) and session.state.startswith("revert"):
            continue  # reverted (or reverting): its changes are gone
        if not isinstance(data, Mapping):
            continue
        for tweak in data.get("tweaks") or []:
            if isinstance(tweak, Mapping) and tweak.get("status") in _DONE:
                done.add(str(tweak.get("id")))
    return done


def advise(
    inventory: Inventory,
    runs: list[RunRecord],
    catalog: Catalog,
    tuning: object = None,
    *,
    knowledge: Knowledge | None = None,
    no_help: Mapping[str, str] | None = None,
) -> Advice:
    """Findings (most severe first) and recommendations (best expected gain first).

    `tuning`: the tuning sessions in force (TuningSessionRecord(s) or their `data`), so tweaks
    already applied are not recommended again. `no_help`: tweak id -> what it did alone on
    this Pi, for the tweaks "Find what helps" measured as no help and reverted: they are not
    recommended again without saying so (sbctune.advice.tried).
    """
    knowledge = knowledge or load_knowledge()
    alone = digest(runs)
    applied = applied_tweaks(tuning)
    measured = measured_advice(inventory, alone, catalog, knowledge, applied)
    aggregate_advice(inventory, runs, alone, catalog, measured)  # NICs measured together
    findings = [*inventory.findings, *measured.findings]
    findings.sort(key=lambda f: _SEVERITY[f.severity])
    recs = merge(list(inventory.recommendations), measured.recommendations)
    recs = within_reach(recs, inventory, applied)
    recs = with_measured(recs, no_help or {})
    notes = []
    if not runs:
        notes.append("No measurement yet: only what the hardware alone shows. Measure for more.")
    if applied:
        from sbctune.tuning.words import tweak_title  # the tweak catalogue, only when needed

        titles = ", ".join(sorted(tweak_title(t) for t in applied))
        notes.append(f"Tweaks in force (not recommended again): {titles}")
    return Advice(findings, recs, notes)
