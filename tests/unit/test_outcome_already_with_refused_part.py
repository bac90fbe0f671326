"""A tweak whose possible parts are already in force and whose other parts the driver refuses
is "already in force", not "not possible on this Pi" (the s12 walk on the pi5-macb lab: the run's
log said offloads were not possible while GRO and GSO were on; TSO is fixed off by macb)."""

from __future__ import annotations

from sbctune.tuning import catalog
from sbctune.tuning.changes import judge, outcome
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.workflow.tuning_words import outcome_line


def _offloads(gro_before: str) -> PlannedTweak:
    return PlannedTweak(
        catalog.tweak("offloads-on"), True, "GRO/GSO/TSO on",
        changes=[Change("ethtool", "eth0 -K gro", gro_before, "on"),
                 Change("ethtool", "eth0 -K gso", "on", "on")],
        impossible=[("eth0 -K tso", "fixed off by the driver")],
    )  # fmt: skip


def test_already_in_force_with_the_refused_part_named() -> None:
    found = outcome(judge(_offloads("on"), []))
    assert found.status == "already"
    line = outcome_line(found)
    assert "already in force" in line and "not possible on this Pi" not in line
    assert "TCP segmentation offload (eth0 -K tso): fixed off by the driver" in found.detail


def test_nothing_possible_is_still_not_possible() -> None:
    item = PlannedTweak(catalog.tweak("offloads-on"), True, "GRO/GSO/TSO on",
                        impossible=[("eth0 -K tso", "fixed off by the driver")])  # fmt: skip
    assert outcome(judge(item, [])).status == "not_possible"
