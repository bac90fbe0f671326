"""Recommendations held to what the Tune page can do: a tweak in force, or one the Tune page's
own rule (sbctune.tuning.source_rule) marks not applicable on this NIC or board, is never
recommended; a recommendation left with some of its tweaks is worded for those alone.

Every recommendation passes here, whichever check wrote it (static, measured, the NICs'
aggregate): the walk-17 Results page recommended rings for lan78xx, which Tune called not
applicable; issue 21 found the same for XPS on single-queue drivers, RPS on a one-core Pi,
flow control beyond lan78xx and the over-clock on boards it has no limits for."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from sbctune.advice.nic_label import label
from sbctune.errors import UserError
from sbctune.inventory.model import Inventory, Nic, Recommendation


def _nic_of(rec: Recommendation, inventory: Inventory) -> Nic | None:
    return next((n for n in inventory.nics if label(n) == rec.nic), None)


def within_reach(
    recs: list[Recommendation], inventory: Inventory, applied: Collection[str] = ()
) -> list[Recommendation]:
    """Recommendations less the tweaks in force and those out of reach: one with none left
    goes; one with some left is worded for those alone, as a measured bottleneck's is
    (measured_base `in_force`)."""
    if not any(rec.kind == "tweak" and rec.tweak_ids for rec in recs):
        return recs
    from sbctune.tuning.source_rule import out_of_reach  # the tweak catalogue, only when needed

    out = []
    for rec in recs:
        if rec.kind == "tweak" and rec.tweak_ids:
            nic = _nic_of(rec, inventory)
            left = [t for t in rec.tweak_ids
                    if t not in applied and out_of_reach(t, inventory, nic) is None]  # fmt: skip
            if not left:
                continue
            if left != rec.tweak_ids:
                rec = _for_tweaks_left(rec, left, inventory)
        out.append(rec)
    return out


def _for_tweaks_left(rec: Recommendation, left: list[str], inventory: Inventory) -> Recommendation:
    """A tweak recommendation worded anew for the tweaks left: its title and why were
    written for all of them (the seed's over-clock with its governor: with the clock raised,
    "Raise the CPU clock" offered only the governor), and its gain was measured for all."""
    from sbctune.tuning import catalog  # the tweak catalogue, only when needed
    from sbctune.tuning.why_words import why_for
    from sbctune.tuning.words import tweak_title

    nic = _nic_of(rec, inventory)
    whys: list[str] = []
    for tweak_id in left:
        try:
            why, _ = why_for(catalog.tweak(tweak_id), inventory, nic)
        except UserError:
            continue  # an id this sbctune does not know: named by its title only
        whys.append(why)
    return replace(
        rec,
        title="Tune the Pi: " + ", ".join(tweak_title(t) for t in left),
        detail=" ".join(
            [*whys, "Apply with the tuning step (auto-revert guard) and measure again."]
        ),
        expected_gain="unknown until measured",
        # The recommendation's own sources, cited in words (evidence.cite): a tweak's sources
        # are the catalogue's notes ("seed 000 (...), results table"), not for a user (CI, s17).
        gain_low_mbps=0.0,
        gain_high_mbps=None,
        tweak_ids=left,
    )
