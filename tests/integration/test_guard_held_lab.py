"""Measuring while a tuning session is armed, in the lab (real SSH, sudo, guard and iperf3).

A run longer than the guard keeps the tuning in force from its start to its end (the heartbeat
re-arms the guard; read back on the Pi at the end), is stored as tuned, and the session can be
confirmed afterwards. With the heartbeat stopped, the guard fires mid-run: the run is marked
"tuning changed during this run", and compare and the HTML export say so."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from sbctune import tuning
from sbctune.advice.inspect import inspect_host
from sbctune.compare import compare
from sbctune.compare.words import verdict_lines
from sbctune.export import export, gather
from sbctune.history import History
from sbctune.history.run_tuning import CHANGED, change_text, usable_as_tuned
from sbctune.measure import runner
from sbctune.measure.plans import plan_named
from sbctune.workflow.measuring import MeasureRequest, measure_and_keep
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
GUARD_SECONDS = 6  # shorter than the run below (its two tests alone take 2 × 4 s of traffic)
PLAN = plan_named("quick").with_overrides(duration=3, omit=1, streams=2, trials=1)
# Not about latency: its idle probing added ~3 s before each test of the two runs.
NO_LATENCY = {"latency": False}
TWEAK = "cpu-governor-performance"


async def test_a_run_longer_than_the_guard_holds_it_and_a_fired_guard_marks_the_run(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    nic = lab.test_nic.name
    with History.open(tmp_path / "history.sqlite") as history:
        async with await connect_to_lab(lab, tmp_path) as session:
            inventory, _ = await inspect_host(session)
            planned = await tuning.plan(session, inventory, nic, [TWEAK])
            applied = await tuning.apply(session, planned, guard_seconds=GUARD_SECONDS,
                                         history=history)  # fmt: skip
            request = MeasureRequest(PLAN, nic=nic, options=NO_LATENCY)
            held = await measure_and_keep(session, history, request)
            assert held.record.finished_at is not None
            took = (held.record.finished_at - held.record.started_at).total_seconds()
            assert took > GUARD_SECONDS  # the guard alone would have fired mid-run
            state = held.record.tuning_state
            assert state is not None and not state["changed_during_run"], state
            assert state["tweaks"] == [TWEAK] and state["end"]["state"] == "armed"
            assert usable_as_tuned(held.record) and held.hold is not None and held.hold.beats >= 2
            assert (await session.run(["cat", GOVERNOR])).stdout.strip() == "performance"
            # After the run the guard starts afresh: there is time to keep it.
            assert await tuning.confirm(session, applied.id, history=history) == applied.id
            await tuning.revert(session, applied.id, history=history)
            assert (await session.run(["cat", GOVERNOR])).stdout.strip() == "ondemand"

            # The heartbeat stopped: the guard fires while the run measures.
            again = await tuning.apply(session, planned, guard_seconds=GUARD_SECONDS,
                                       history=history)  # fmt: skip
            request = MeasureRequest(PLAN, nic=nic, hold_guard=False, options=NO_LATENCY)
            fired = await measure_and_keep(session, history, request)
            assert await tuning.find_leftover(session) is None  # its guard put it back
        state = fired.record.tuning_state
        assert state is not None and state["changed_during_run"] and state["tweaks"] == []
        assert state["session"] == again.id and state["start"]["in_force"] == [TWEAK]
        assert not usable_as_tuned(fired.record)
        runs = [held.record, fired.record]
        lines = verdict_lines(compare(runs))
        assert lines[0] == f"run {fired.record.id}: {CHANGED}: its figures are not a fair " \
            "before or after", lines  # fmt: skip
        ids = [r.id for r in runs if r.id is not None]
        html = export("html", gather(history, ids), tmp_path / "r.html").read_text("utf-8")
    assert f"run {fired.record.id}: {CHANGED} (at start: 1 tweak in force (on trial under the " \
        "guard); at end: untuned" in html  # fmt: skip
    assert f"run {held.record.id}" in html.split("Runs measured with it in force all along")[1]


async def test_a_change_mid_run_is_found_at_the_test_where_it_happened(
    lab_factory: Any, tmp_path: Path
) -> None:
    """Read with each sample on the sampler's channel: the session is reverted from a second
    connection when the first test ends; the run says at which test the change was seen, its
    first test read the tuning in force, and compare and the HTML export say so."""
    lab = lab_factory(profile="pi4-ax88179")
    nic = lab.test_nic.name
    # Two rounds, so the change has a test to be found at after the first; no extra trials
    # (where the change was seen is asserted, not the interval; the trials straddle the revert,
    # so they disagreed and an extra round, two more tests, ran after the change was found).
    two = plan_named("quick").with_overrides(duration=3, omit=1, streams=2, trials=2)
    plan = dataclasses.replace(two, extra_trials=0)
    with History.open(tmp_path / "history.sqlite") as history:
        async with await connect_to_lab(lab, tmp_path) as session:
            inventory, _ = await inspect_host(session)
            planned = await tuning.plan(session, inventory, nic, [TWEAK])
            applied = await tuning.apply(session, planned, guard_seconds=600, history=history)
            elsewhere = await connect_to_lab(lab, tmp_path)
            reverts: list[asyncio.Task[Any]] = []

            def seen(event: runner.Event) -> None:
                if isinstance(event, runner.TestFinished) and event.test_index == 0 \
                        and not reverts:  # fmt: skip
                    reverts.append(asyncio.create_task(tuning.revert(elsewhere, applied.id)))

            async with elsewhere:
                request = MeasureRequest(plan, nic=nic, options=NO_LATENCY)
                measured = await measure_and_keep(session, history, request, on_event=seen)
                await asyncio.gather(*reverts)
            assert (await session.run(["cat", GOVERNOR])).stdout.strip() == "ondemand"
        record = measured.record
        state = record.tuning_state
        assert state is not None and state["changed_during_run"], state
        at = state.get("changed_at_test")
        assert isinstance(at, int) and 2 <= at <= len(plan.tests), state
        watch = measured.run.tuning_watch
        session_state = f"/var/lib/sbctune/tuning/{applied.id}/state"
        assert watch["first"][session_state] == "armed"
        # The governor as the tweak set it: each cpufreq policy's file.
        policies = [p for p in watch["first"] if p.endswith("/scaling_governor")]
        assert policies and {watch["first"][p] for p in policies} == {"performance"}, watch
        assert watch["tests"]["0"] == watch["first"], "the first test ran tuned"
        assert watch["tests"][str(at - 1)] != watch["first"]
        last = watch["tests"][str(len(plan.tests) - 1)]  # the revert is done by then
        assert {last[p] for p in policies} == {"ondemand"} and last[session_state] == "reverted"
        assert not usable_as_tuned(record)
        words = change_text(record)
        assert words.endswith(f"; first seen at the end of test {at})"), words
        lines = verdict_lines(compare([record, record]))
        assert lines[0].startswith(f"run {record.id}: {CHANGED}"), lines
        assert record.id is not None
        html = export("html", gather(history, [record.id]), tmp_path / "r.html").read_text("utf-8")
    assert f"first seen at the end of test {at}" in html
