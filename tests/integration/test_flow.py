"""The one-click flow against each seed profile in the lab (real SSH, sudo, iperf3 and tuning):
baseline → recommended safe tweaks under the guard → measure again → results. The top
recommendation must be the seed author's conclusion, resting on the figures just measured."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sbctune import tuning
from sbctune.advice.inspect import inspect_bundle, inspect_host
from sbctune.compare import compare
from sbctune.export import export, gather
from sbctune.history import History
from sbctune.measure.plans import Plan, plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.workflow import FlowEvent, FlowOptions, FlowStep, PartialKept, one_click
from tests.lab_support import connect_to_lab, iperf3_left_on_pi

pytestmark = [pytest.mark.lab, pytest.mark.slow]

# The seed conclusions and the cancel are not about trials: one per direction. The tuning's
# gain is a verdict from the trials' interval: that test keeps the plan's three.
ONE_TRIAL = plan_named("quick").with_overrides(duration=4, omit=1, streams=4, trials=1)
QUICK = plan_named("quick").with_overrides(duration=4, omit=1, streams=4)

# The seed author's conclusion per profile: (recommendation kind, words in its title).
CONCLUSIONS = {
    "pi4-ax88179": ("adapter", "RTL8153"),  # seed 000: "the rtl8153 is much better suited"
    "pi1b-smsc95xx": ("board", "maximum of 100 Mb/s Ethernet"),  # seed 001
    "cm4-rtl8125b-r8169": ("driver", "r8125"),  # seed 003: "check your driver"
    "cm4-i340-nodriver": ("driver", "igb"),  # seed 004: "no driver bound: build igb"
}


async def _one_click(
    lab_factory: Any, tmp_path: Path, profile: str, plan: Plan = ONE_TRIAL, **options: Any
) -> tuple[Any, list[FlowEvent], History]:
    lab = lab_factory(profile=profile)
    events: list[FlowEvent] = []
    history = History.open(tmp_path / "history.sqlite")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, collection = await inspect_host(session)
        flow_options = FlowOptions(plan=plan, nic=lab.test_nic.name, guard_seconds=30, **options)
        result = await one_click(
            session, inventory, flow_options, history, on_event=events.append, collection=collection
        )
        if result.tuning is not None:  # kept: the Pi shows it as the session in force
            kept = await tuning.find_leftover(session)
            assert kept is not None and kept.id == result.tuning.id and kept.state == "confirmed"
    return result, events, history


def _assert_seed_conclusion(
    result: Any, events: list[FlowEvent], history: History, profile: str
) -> None:
    steps = [(e.step, e.status) for e in events if isinstance(e, FlowStep)]
    assert steps[0] == ("baseline", "started") and steps[-1] == ("results", "done")
    assert any(isinstance(e, LiveInterval) for e in events)
    # What the flow returns is what the history keeps.
    assert history.run(result.baseline.id).tests == result.baseline.tests
    kind, words = CONCLUSIONS[profile]
    top = result.advice.top
    assert top is not None and top.kind == kind and words in top.title, top
    assert top.evidence or top.expected_gain  # it rests on figures
    if result.tuning is not None:
        assert result.after is not None and result.after.tuning_state is not None
        applied = {o.tweak_id for o in result.tuning.outcomes if o.status == "applied"}
        assert set(result.after.tuning_state["tweaks"]) >= applied


# pi4-ax88179's flow runs once, in the next test, which checks its conclusion too.
@pytest.mark.parametrize("profile", sorted(set(CONCLUSIONS) - {"pi4-ax88179"}))
async def test_one_click_reaches_the_seed_conclusion(
    lab_factory: Any, tmp_path: Path, profile: str
) -> None:
    result, events, history = await _one_click(lab_factory, tmp_path, profile)
    with history:
        _assert_seed_conclusion(result, events, history, profile)


async def test_one_click_tuning_raises_the_pi4_transmit_rate(
    lab_factory: Any, tmp_path: Path
) -> None:
    """pi4-ax88179 models seed 000's CPU-bound transmit: the performance governor with RPS on
    eth1 lifts Pi→PC from 736 towards 834 Mbit/s. The flow must apply both and show the gain."""
    result, events, history = await _one_click(lab_factory, tmp_path, "pi4-ax88179", QUICK)
    with history:  # the raw outputs were kept: the runs export as a diagnostics bundle
        _assert_seed_conclusion(result, events, history, "pi4-ax88179")
        ids = [r.id for r in result.runs if r.id is not None]
        bundle = export("bundle", gather(history, ids), tmp_path / "pi.zip")
    nic = inspect_bundle(bundle).nic("eth1")
    assert nic is not None and nic.chip is not None and "AX88179" in nic.chip
    assert result.tuning is not None and result.after is not None
    applied = {o.tweak_id for o in result.tuning.outcomes if o.status == "applied"}
    assert {"cpu-governor-performance", "rps-rfs"} <= applied, result.tuning.outcomes

    # The relation, not absolute rates (a busy machine measures lower): Pi → PC is faster, its
    # whole 95 % interval above zero; PC → Pi, which the lab's tweak does not touch, is not.
    comparison = compare([result.baseline, result.after])
    tx, rx = comparison.row("pi_to_pc", "half"), comparison.row("pc_to_pi", "half")
    assert tx is not None and tx.cells[1].verdict == "faster", tx
    assert rx is not None and rx.cells[1].verdict not in ("faster", "slower"), rx
    # The flow reports the same in words.
    done = [e.detail for e in events if isinstance(e, FlowStep) and e.step == "results"]
    assert any("Pi → PC half-duplex: faster by " in d for d in done), done


async def test_cancel_during_measure_again_reverts_the_tuning(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    history = History.open(tmp_path / "history.sqlite")
    seen_after = asyncio.Event()
    measured_after = asyncio.Event()
    kept: list[PartialKept] = []

    def watch(event: FlowEvent) -> None:
        if isinstance(event, FlowStep) and event.step == "measure_again":
            seen_after.set()
        elif isinstance(event, LiveInterval) and seen_after.is_set():
            measured_after.set()
        elif isinstance(event, PartialKept):
            kept.append(event)

    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        options = FlowOptions(plan=ONE_TRIAL, nic=lab.test_nic.name, guard_seconds=60)
        task = asyncio.create_task(one_click(session, inventory, options, history, on_event=watch))
        await asyncio.wait_for(seen_after.wait(), timeout=120)
        await asyncio.wait_for(measured_after.wait(), timeout=30)  # inside the second one
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await tuning.find_leftover(session) is None  # reverted, nothing left armed
        governor = await session.run(
            ["cat", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"]
        )
        assert governor.stdout.strip() == "ondemand"  # the profile's original governor
        assert await iperf3_left_on_pi(session, lab) == []
    # What the second measurement had measured is kept, marked incomplete, with the tweaks
    # that were in force while it ran.
    (partial,) = kept
    stored = history.run(partial.record.id or 0)
    assert partial.step == "measure_again" and not stored.complete
    assert stored.tuning_state is not None and stored.tuning_state["tweaks"]
    history.close()
