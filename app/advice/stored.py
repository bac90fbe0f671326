"""An Inventory back from its stored JSON (history keeps `Inventory.to_json()`)."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from sbctune.inventory.model import (
    Board,
    Finding,
    Inventory,
    Nic,
    Pcie,
    Recommendation,
    Throttled,
)

T = TypeVar("T")


def _build(cls: type[T], data: Any, **nested: Any) -> T | None:
    """A dataclass from a dict, ignoring keys it does not know (newer or derived ones)."""
    if not isinstance(data, dict):
        return None
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values = {k: v for k, v in data.items() if k in names}
    values.update(nested)
    try:
        return cls(**values)
    except TypeError:
        return None  # a required key is missing: treat the entry as unreadable


def inventory_from_json(data: dict[str, Any]) -> Inventory:
    board_data = data.get("board") or {}
    throttled = _build(Throttled, board_data.get("throttled"))
    board = _build(Board, board_data, throttled=throttled) or Board()
    nics = []
    for raw in data.get("nics") or []:
        pcie = _build(Pcie, raw.get("pcie")) if isinstance(raw, dict) else None
        nic = _build(Nic, raw, pcie=pcie)
        if nic is not None:
            nics.append(nic)
    findings = [f for f in (_build(Finding, x) for x in data.get("findings") or []) if f]
    recs = [r for r in (_build(Recommendation, x) for x in data.get("recommendations") or []) if r]
    return Inventory(
        board=board,
        nics=nics,
        findings=findings,
        recommendations=recs,
        warnings=[str(w) for w in data.get("warnings") or []],
        missing_tools=[str(t) for t in data.get("missing_tools") or []],
    )
