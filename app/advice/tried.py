"""Recommendations the user just measured on this Pi ("Find what helps" tried each tweak alone
and reverted those that gave nothing): the advice says so instead of recommending them again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sbctune.inventory.model import Recommendation


def with_measured(recs: list[Recommendation], no_help: Mapping[str, str]) -> list[Recommendation]:
    """`no_help`: tweak id -> what it did alone here ("no gain beyond noise", "Pi → PC: slower
    by …"). A tweak recommendation whose every tweak is in it is kept, last, and says what was
    measured and that it was reverted; its expected gain no longer ranks it."""
    if not no_help:
        return recs
    fresh, measured = [], []
    for rec in recs:
        tweaks = rec.tweak_ids if rec.kind == "tweak" else []
        if not tweaks or any(t not in no_help for t in tweaks):
            fresh.append(rec)
            continue
        what = "; ".join(dict.fromkeys(no_help[t] for t in tweaks))
        measured.append(
            replace(
                rec,
                title=f"{rec.title}: measured here, no help",
                expected_gain=f"none on this Pi (measured alone: {what}; reverted)",
                gain_low_mbps=None,
                gain_high_mbps=None,
                evidence=[f"Measured on its own on this Pi: {what}", *rec.evidence],
                # The write-up is why it was tried, not a source for a gain here (walk 14: it
                # stood as the "Source" under "measured here, no help").
                sources=[
                    f"what suggested trying it (measured elsewhere): {s}" for s in rec.sources
                ],
            )
        )
    return [*fresh, *measured]
