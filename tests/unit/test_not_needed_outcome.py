"""A tweak the plan called "not needed here" is not a failure once applied (walk 22: `tune apply`
printed "✗ Flow control: not possible on this Pi" for flow control that the plan had left out
as only for NICs known to need it; a user reads ✗ as something that went wrong). It has its own
outcome, words and mark, counted apart in History's summary and the reports."""

from __future__ import annotations

import asyncio
import datetime as dt
from types import SimpleNamespace
from typing import Any, cast

from sbctune.cli.history_cmd import _session_line
from sbctune.cli.tune_plan_text import applied_lines
from sbctune.cli.tune_status import MARK
from sbctune.tuning import catalog
from sbctune.tuning.applying import _Run, _write
from sbctune.tuning.model import AppliedSession, NotNeeded, PlannedTweak, TweakOutcome
from sbctune.tuning.record import SessionRecord, read_record
from sbctune.tuning.words import outcome_counts

WHY = "only for NICs known to need it (lan78xx)"


def _record() -> SessionRecord:
    return SessionRecord("20261130T150000Z-abcdef", "eth0", 90, False, "2026-11-30T15:00:00+00:00",
                         "", "pi")  # fmt: skip


def _outcomes() -> list[TweakOutcome]:
    """What apply records for a plan with flow control not needed and EEE not possible."""
    items = [
        PlannedTweak(catalog.tweak("flow-control"), False, NotNeeded(WHY), not_needed=True),
        PlannedTweak(catalog.tweak("eee-off"), False, "the driver has no set_eee"),
    ]
    said: list[str] = []
    run = _Run(cast(Any, None), _record(), items, [], said.append)
    asyncio.run(_write(run))  # nothing to write: no SSH is needed
    return run.record.tweaks


def test_apply_records_not_needed_apart_from_not_possible() -> None:
    found = {o.tweak_id: o.status for o in _outcomes()}
    assert found == {"flow-control": "not_needed", "eee-off": "not_possible"}


def test_tune_apply_says_nothing_to_change_without_a_cross() -> None:
    applied = AppliedSession("20261130T150000Z-abcdef", 0.0, _outcomes(), nic="eth0")
    flow, eee = applied_lines(applied, [], MARK)
    assert "not possible" not in flow and "✗" not in flow, flow
    assert "flow control" in flow and "not needed here: nothing to change" in flow, flow
    assert WHY in flow, flow
    assert "✗" in eee and "not possible on this Pi" in eee, eee


def test_counted_apart_in_history_and_read_back_from_a_record() -> None:
    outcomes = _outcomes()
    counts = outcome_counts((o.status, o.detail) for o in outcomes)
    assert counts == "1 not needed, 1 not possible", counts
    record = _record()
    record.tweaks = outcomes
    again = read_record(record.to_json())  # the Pi's session.json, History's copy
    assert [o.status for o in again.tweaks] == ["not_needed", "not_possible"]


def test_history_line_of_such_a_session() -> None:
    record = _record()
    record.tweaks = _outcomes()

    # History's row of a tuning session: its id, state, start and record
    when = dt.datetime(2026, 11, 30, 15, 0, tzinfo=dt.timezone.utc)
    stored = SimpleNamespace(id=3, state="kept", data=record.to_json(), started_at=when)
    line = _session_line(cast(Any, stored))
    assert "1 not needed, 1 not possible" in line, line


def test_the_apps_tune_page_and_results_say_it_alike() -> None:
    from sbctune.workflow.tuning_words import outcome_lines

    flow, eee = outcome_lines(_outcomes())
    assert "not needed here: nothing to change" in flow and "not possible" not in flow, flow
    assert "not possible on this Pi" in eee, eee
