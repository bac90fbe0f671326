"""Ordering recommendations by expected gain, and merging static with measured advice."""

from __future__ import annotations

from sbctune.advice.power import THEN_MEASURE
from sbctune.inventory.model import Recommendation

# Kinds that cannot wait: a measurement of the wrong NIC invalidates every other conclusion, and
# so does one of a Pi slowed down by its power or heat (titles ending in THEN_MEASURE).
_FIRST = {"Measure again over"}
# On equal gain, fix what is broken before buying or tuning.
_KIND_ORDER = ["setting", "driver", "cable", "power", "board", "adapter", "tweak"]


def expected_gain(rec: Recommendation) -> float:
    """The figure a recommendation is ranked by: the middle of its gain range when both ends
    are sourced, its low end when only that is (an open-ended "at most"), else nothing."""
    low, high = rec.gain_low_mbps, rec.gain_high_mbps
    if low is not None and high is not None:
        return (low + high) / 2
    if low is not None:
        return low
    if high is not None:
        return high / 4  # only a ceiling: a fraction of it is the honest expectation
    return 0.0


def _key(rec: Recommendation) -> tuple[int, float, int]:
    first = any(rec.title.startswith(prefix) for prefix in _FIRST) or rec.title.endswith(
        THEN_MEASURE
    )
    kind = _KIND_ORDER.index(rec.kind) if rec.kind in _KIND_ORDER else len(_KIND_ORDER)
    return (0 if first else 1, -expected_gain(rec), kind)


def merge(static: list[Recommendation], measured: list[Recommendation]) -> list[Recommendation]:
    """Measured advice replaces static advice of the same kind for the same NIC (it knows the
    real figures); same titles collapse into one. Then best expected gain first."""
    by_kind: set[tuple[str, str | None]] = {(r.kind, r.nic) for r in measured if r.kind != "tweak"}
    by_title: set[tuple[str, str | None, str]] = {(r.kind, r.nic, r.title) for r in measured}
    kept = [
        r
        for r in static
        if (r.kind, r.nic) not in by_kind and (r.kind, r.nic, r.title) not in by_title
    ]
    seen: set[tuple[str, str | None, str]] = set()
    merged = []
    for rec in [*measured, *kept]:
        key = (rec.kind, rec.nic, rec.title)
        if key in seen:
            continue
        seen.add(key)
        merged.append(rec)
    return sorted(merged, key=_key)
