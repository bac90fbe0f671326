"""How long a measurement holds an armed session's guard (sbctune.workflow.guard_hold): the
planned run plus a margin, never less than the guard time, longer when trials are added; and
what the user is told about it."""

from __future__ import annotations

import time

from sbctune.measure.plans import plan_named
from sbctune.measure.steady import ExtraTrial, TrialsAdded
from sbctune.workflow.guard_hold import (
    MARGIN_SECONDS,
    PER_TEST_SECONDS,
    GuardHold,
    extra_seconds,
    held_words,
    planned_seconds,
)


def test_the_planned_time_counts_every_test_and_its_switch() -> None:
    plan = plan_named("thorough")
    assert len(plan.tests) == 20  # 4 tests × 5 trials, 13 s + 2 s omitted each
    assert planned_seconds(plan) == 20 * 15 + 20 * PER_TEST_SECONDS


def test_a_hold_arms_for_what_is_left_of_the_run_never_less_than_the_guard() -> None:
    hold = GuardHold("20261128T140000Z-abcdef", 90)
    hold.held_until = time.monotonic() + 400 + MARGIN_SECONDS
    assert 400 + MARGIN_SECONDS - 2 <= hold.seconds_now() <= 400 + MARGIN_SECONDS
    hold.held_until = time.monotonic() + 10  # nearly done: the guard time itself
    assert hold.seconds_now() == 90
    hold.held_until = time.monotonic() - 50  # overran the plan: still the guard time
    assert hold.seconds_now() == 90


def test_extra_trials_hold_it_longer_and_wake_the_heartbeat() -> None:
    plan = plan_named("quick")
    added = TrialsAdded(2, (ExtraTrial(plan.tests[0], "its trials disagreed"),
                          ExtraTrial(plan.tests[1], "its trials disagreed")))  # fmt: skip
    assert extra_seconds(added) == 2 * (5 + 1 + PER_TEST_SECONDS)
    hold = GuardHold("20261128T140000Z-abcdef", 30)
    hold.held_until = time.monotonic() + 100
    before = hold.seconds_now()
    hold.extend(extra_seconds(added))
    assert hold.seconds_now() - before >= extra_seconds(added) - 1
    assert hold._wake.is_set(), "the next beat comes at once"


def test_the_user_is_told_when_the_pi_reverts_if_the_app_stops() -> None:
    hold = GuardHold("20261128T140000Z-abcdef", 90)
    assert held_words(hold) == "Tuning held while measuring"
    hold.pi_deadline = 1000.0 + 412
    assert held_words(hold, now=1000.0) == (
        "Tuning held: if this app stops, the Pi reverts it by itself within 412 s"
    )
