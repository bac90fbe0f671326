"""Find what helps says why it did not measure a tweak as the plan and apply say it (walk s23):
flow control left out as "only for NICs known to need it" read "not possible: …", and a tweak
the Pi refused read "not_possible: …", a raw status, on Results and in `sbctune demo`."""

from __future__ import annotations

from sbctune.tuning import catalog
from sbctune.tuning.model import NotNeeded, PlannedTweak, TweakOutcome
from sbctune.workflow.attributing import left_out_why, outcome_why
from tests.plain_words import jargon

WHY = "only for NICs known to need it (lan78xx)"


def test_a_tweak_not_needed_is_not_called_not_possible() -> None:
    item = PlannedTweak(catalog.tweak("flow-control"), False, NotNeeded(WHY), not_needed=True)
    assert left_out_why(item) == f"not needed here: {WHY}"


def test_a_tweak_the_driver_refuses_is_still_not_possible() -> None:
    item = PlannedTweak(catalog.tweak("eee-off"), False, "the driver has no set_eee")
    assert left_out_why(item) == "not possible here: the driver has no set_eee"


def test_an_outcome_is_said_in_words_never_its_status() -> None:
    why = outcome_why(TweakOutcome("eee-off", "not_possible", "/proc/irq/46/smp_affinity: "
                                   "Invalid argument"))  # fmt: skip
    assert why == "not possible on this Pi: the kernel answered “Invalid argument”", why
    assert not jargon(why), jargon(why)
    assert outcome_why(None) == "failed"
