"""A failed tweak in plain words (s13 walk, "tune apply" on the cm4-rtl8125b-r8169 lab): the
others were put back "(reverted: offloads-on failed)", a tweak id, and the failure said
"read back None", a Python word, where the Pi showed no value."""

from __future__ import annotations

from sbctune.tuning import catalog
from sbctune.tuning.applying import reverted_note
from sbctune.tuning.changes import Written, judge, outcome
from sbctune.tuning.model import Change, PlannedTweak
from tests.plain_words import jargon


def _written(value: str | None) -> PlannedTweak:
    return PlannedTweak(
        catalog.tweak("offloads-on"), True, "GRO/GSO/TSO on",
        changes=[Change("ethtool", "eth1 -K sg", "off", "on")],
    )  # fmt: skip


def test_nothing_read_back_is_said_in_words() -> None:
    item = _written(None)
    verdict = judge(item, [Written(item.changes[0], 0, None, None)])
    found = outcome(verdict)
    assert found.status == "failed"
    assert "None" not in found.detail, found.detail
    assert "eth1 -K sg: no value was shown after writing 'on'" in found.detail, found.detail


def test_a_wrong_value_read_back_is_still_quoted() -> None:
    item = _written("off")
    found = outcome(judge(item, [Written(item.changes[0], 0, None, "off")]))
    assert "eth1 -K sg: read back 'off' after writing 'on'" in found.detail, found.detail


def test_the_others_say_which_tweak_failed_by_its_title() -> None:
    note = reverted_note("offloads-on")
    assert note == " (put back: “Segmentation and receive offloads on (GRO, GSO, TSO)” failed)"
    assert "offloads-on" not in note and not jargon(note), jargon(note)
