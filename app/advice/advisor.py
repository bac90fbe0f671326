"""What the advice checks that need no measurement write into and read (static.py's per-NIC
checks, static_board's and static_pcie's board-level ones): ``Advisor``, and ``label``, how a
finding or recommendation names its NIC."""

from __future__ import annotations

from collections.abc import Iterable

from sbctune.advice.evidence import cite
from sbctune.catalog import Catalog
from sbctune.inventory.model import (
    Finding,
    Inventory,
    Nic,
    Recommendation,
    RecommendationKind,
    Severity,
)
from sbctune.inventory.raw import Parsed


def label(nic: Nic) -> str:
    return nic.name or f"{nic.chip or 'NIC'} at {nic.bus_path or '?'}"


class Advisor:
    """Where the checks write: the inventory's findings and recommendations (a recommendation
    once per kind and title), beside what they read (the parsed outputs, the catalog, the
    board's catalog entry)."""

    def __init__(self, inventory: Inventory, parsed: Parsed, catalog: Catalog) -> None:
        self.inv = inventory
        self.parsed = parsed
        self.catalog = catalog
        self.board = (
            catalog.board(inventory.board.catalog_id) if inventory.board.catalog_id else None
        )

    def finding(
        self, id_: str, severity: Severity, nic: Nic | None, summary: str, evidence: Iterable[str]
    ) -> None:
        self.inv.findings.append(
            Finding(id_, severity, label(nic) if nic else None, summary, list(evidence))
        )

    def recommend(
        self,
        kind: RecommendationKind,
        nic: Nic | None,
        title: str,
        detail: str,
        gain: str,
        sources: list[str],
        low: float | None = None,
        high: float | None = None,
        *,
        evidence: Iterable[str] = (),
        tweaks: Iterable[str] = (),
        steps: Iterable[str] = (),
    ) -> None:
        """`low`/`high`: the expected gain in Mbit/s, for ranking (None: no figure)."""
        if any(r.kind == kind and r.title == title for r in self.inv.recommendations):
            return  # e.g. one driver for the four ports of one card
        self.inv.recommendations.append(
            Recommendation(
                kind,
                label(nic) if nic else None,
                title,
                detail,
                gain,
                cite(self.catalog, sources),
                gain_low_mbps=low,
                gain_high_mbps=high,
                evidence=list(evidence),
                tweak_ids=list(tweaks),
                steps=list(steps),
            )
        )
