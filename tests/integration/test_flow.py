"""The one-click flow against each seed profile in the lab (real SSH, sudo, iperf3 and tuning):
baseline → recommended safe tweaks under the guard → measure again → results. The top
recommendation must be the seed author's conclusion, resting on the figures just measured."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
from pathlib import Path
from typing import Any

import pytest

from sbctune import tuning
from sbctune.advice.inspect import inspect_host
from sbctune.advice.thresholds import AT_LIMIT_SHARE
from sbctune.history import History
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.workflow import FlowEvent, FlowOptions, FlowStep, PartialKept, one_click
from sbctune.workflow.flow_types import (
    FlowCancelled,
    FlowTuning,
    GuardHeld,
    StepPlanned,
    TuningEvent,
)
from sbctune.workflow.keeping import NO_INTERVAL, NOTHING_TO_GAIN
from sbctune.workflow.pi_state import read_pi_state
from sbctune.workflow.steps import FIND_FLOW_STEPS
from tests.lab_support import connect_to_lab, iperf3_left_on_pi

pytestmark = [pytest.mark.lab, pytest.mark.slow]

# The seed conclusions and the cancel are not about trials: one per direction. The tuning's
# gain is a verdict from the trials' interval: tests/integration/test_demo_cli.py runs the
# flow on pi4-ax88179 with the plan's three and checks that gain, the tweaks kept and the
# export, so the flow runs here only on the other seed profiles.
ONE_TRIAL = plan_named("quick").with_overrides(duration=4, omit=1, streams=4, trials=1)

# The seed author's conclusion per profile: (recommendation kind, words in its title).
# pi4-ax88179's (seed 000: "the rtl8153 is much better suited") is checked where its one-click
# flow runs, in tests/integration/test_demo_cli.py; the cancel below runs part of that flow.
CONCLUSIONS = {
    "pi1b-smsc95xx": ("board", "is the maximum of 100 Mbit/s Ethernet"),  # seed 001
    "cm4-rtl8125b-r8169": ("driver", "r8125"),  # seed 003: "check your driver"
    "cm4-i340-nodriver": ("driver", "Install the igb driver"),  # seed 004: "build igb"
}
# What else the top recommendation says, and a finding it rests on (these were
# tests/integration/test_advice_lab.py's, from a plain measurement: the flow's baseline is one).
DETAILS: dict[str, dict[str, str]] = {
    "pi1b-smsc95xx": {
        "detail": "USB 2.0 controller behind it is the bottleneck",
        "finding": "at-physical-limit",
    },
    "cm4-rtl8125b-r8169": {"expected_gain": "2350"},
    "cm4-i340-nodriver": {
        "title": "Install the igb driver",
        "detail": "caps the ports together near 3.1 Gbit/s",
    },
}

# Profiles whose conclusion is "the link is full": their link speed (Mb/s, the lab profile's).
# The lab shapes pi1b to 94 Mbit/s, 94 % of the link, 3 points above the advice's limit
# (AT_LIMIT_SHARE): a machine busy enough can keep a one-trial run under it.
AT_THE_WIRE = {"pi1b-smsc95xx": 100}


def _reached_the_wire(result: Any, link_mbps: int) -> bool:
    """Did every one-way direction, in its best trial, reach the advice's share of the link?
    (The latest run's figures, as the advice reads them.)"""
    latest: dict[str, list[float]] = {}
    for run in sorted(result.runs, key=lambda r: (r.started_at, r.id or 0)):
        for test in run.tests:
            if test.mode == "half" and test.mean_mbps is not None:
                latest[test.direction] = [test.mean_mbps, *test.trial_means]
    assert set(latest) == {"pi_to_pc", "pc_to_pi"}, latest
    return all(max(v) >= AT_LIMIT_SHARE * link_mbps for v in latest.values())


async def _raw_knobs(session: Any, paths: list[str]) -> dict[str, bytes]:
    """Each knob file's bytes exactly as the Pi has them."""
    found = {}
    for path in paths:
        out, err, code = await session.run_bytes(["cat", path], timeout=15)
        found[path] = out if code == 0 else b"unreadable: " + err
    return found


def _settings(state: dict[str, str] | None) -> dict[str, str]:
    """A run's stored settings without the CPU clock (it moves by itself)."""
    return {k: v for k, v in (state or {}).items() if not k.startswith("cpu_khz/")}


async def _one_click(
    lab_factory: Any, tmp_path: Path, profile: str
) -> tuple[Any, list[FlowEvent], History]:
    lab = lab_factory(profile=profile)
    events: list[FlowEvent] = []
    history = History.open(tmp_path / "history.sqlite")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, collection = await inspect_host(session)
        planned = await tuning.plan(session, inventory, lab.test_nic.name, None)
        paths = sorted({c.path for i in planned.items for c in i.changes if c.path})
        before = await _raw_knobs(session, paths)
        flow_options = FlowOptions(plan=ONE_TRIAL, nic=lab.test_nic.name, guard_seconds=30)
        result = await one_click(
            session, inventory, flow_options, history, on_event=events.append, collection=collection
        )
        if result.tuning is not None:  # kept: the Pi shows it as the session in force
            kept = await tuning.find_leftover(session)
            assert kept is not None and kept.id == result.tuning.id and kept.state == "confirmed"
        else:  # nothing kept: every knob the tweaks touch is byte-identical to before
            assert await tuning.find_leftover(session) is None
            assert await _raw_knobs(session, paths) == before
            nic = inventory.nic(lab.test_nic.name)
            now = await read_pi_state(session, lab.test_nic.name, nic.irqs if nic else ())
            assert _settings(now) == _settings(result.baseline.pi_state)
        # One rule for the device's name, as the window names it: the Pi's host name (the s13
        # walk: `demo` named it by its board, and a Pi 1 B, whose board is unknown, not at all).
        hostname = (await session.run(["hostname"])).stdout.strip()
    (device,) = history.devices()
    assert hostname and device.name == hostname, (device.name, hostname)
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
    details = DETAILS[profile]
    if profile in AT_THE_WIRE and not _reached_the_wire(result, AT_THE_WIRE[profile]):
        # A busy machine kept every trial of a direction under the limit: the advice must then
        # follow from those figures (the board's own advice, no "maximum"). That the seed's
        # figures give the conclusion is tests/unit/test_advice_seeds.py's test_seed_001_*.
        kind, words = "board", "For more speed, use a Pi 4 or Pi 5"
        details = {"finding_absent": "at-physical-limit"}
    top = result.advice.top
    assert top is not None and top.kind == kind and words in top.title, top
    assert top.evidence or top.expected_gain  # it rests on figures
    assert details.get("title", top.title) == top.title, top
    assert details.get("detail", "") in top.detail, top
    assert details.get("expected_gain", "") in top.expected_gain, top
    if "finding" in details:
        assert any(f.id == details["finding"] for f in result.advice.findings), result.advice
    if "finding_absent" in details:
        assert all(f.id != details["finding_absent"] for f in result.advice.findings)
    if result.after is not None:  # measured with the tuning in force, read back at both ends
        state = result.after.tuning_state
        assert state is not None and state["read_back"] and not state["changed_during_run"]
        applied = {o.tweak_id for o in result.tuning_outcomes if o.status == "applied"}
        assert set(state["tweaks"]) >= applied
    # One trial per direction gives no interval: no gain can be shown, so nothing is kept and
    # the user is told so (`sbctune demo` on pi1b, with the plan's trials: "nothing to gain").
    keep = next((e for e in events if isinstance(e, FlowStep) and e.step == "keep"
                 and e.status != "started"), None)  # fmt: skip
    if result.after is not None:
        assert keep is not None and keep.status == "done", keep
        assert result.tuning is None and result.reverted_as_before
        assert keep.detail.startswith(NO_INTERVAL) and "your Pi is as it was" in keep.detail


@pytest.mark.parametrize("profile", sorted(CONCLUSIONS))
async def test_one_click_reaches_the_seed_conclusion(
    lab_factory: Any, tmp_path: Path, profile: str
) -> None:
    result, events, history = await _one_click(lab_factory, tmp_path, profile)
    with history:
        _assert_seed_conclusion(result, events, history, profile)


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
        elif isinstance(event, FlowCancelled):
            cancelled.append(event.words)
        elif isinstance(event, FlowTuning | GuardHeld):
            tuning_seen.append(event)

    cancelled: list[str] = []
    tuning_seen: list[FlowTuning | GuardHeld] = []
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
    # The window's status bar and the Tune page's log say what was read back after the revert
    # (the s13 walk: "the tuning (if any) was reverted" over a log ending "applied").
    assert cancelled == [
        "Cancelled: the tuning was reverted; every value it touched reads back as before."
    ]
    # What the second measurement had measured is kept, marked incomplete, with the tweaks
    # that were in force while it ran.
    (partial,) = kept
    stored = history.run(partial.record.id or 0)
    assert partial.step == "measure_again" and not stored.complete
    assert stored.tuning_state is not None and stored.tuning_state["tweaks"]
    # What the window shows of the tuning while the flow runs (walk 14: an old "Reverted" box
    # over three tweaks on trial): on trial as the Pi answered, held while measured, reverted.
    said = [(type(e).__name__, e.state if isinstance(e, FlowTuning) else e.held,
             isinstance(e, GuardHeld) and e.hold is not None) for e in tuning_seen]  # fmt: skip
    assert said[0] == ("FlowTuning", "guarded", False), said
    assert ("GuardHeld", True, True) in said, said  # the Pi's deadline while it measured
    assert said[-2:] == [("GuardHeld", False, False), ("FlowTuning", "reverted", False)], said
    first = tuning_seen[0]
    assert isinstance(first, FlowTuning) and first.applied.outcomes
    history.close()


async def test_find_what_helps_measures_each_tweak_alone_and_keeps_nothing_on_pi1b(
    lab_factory: Any, tmp_path: Path
) -> None:
    """pi1b-smsc95xx is at its 100 Mb/s line rate: no tweak alone helps, so nothing is kept,
    every knob reads back byte-identical, and each tweak's step is stored for the exports."""
    lab = lab_factory(profile="pi1b-smsc95xx")
    # Two trials give an interval; no extra trials (only the relation to noise is asserted).
    quick = plan_named("quick").with_overrides(duration=2, omit=1, streams=2, trials=2)
    plan = dataclasses.replace(quick, extra_trials=0)
    events: list[FlowEvent] = []
    with History.open(tmp_path / "history.sqlite") as history:
        async with await connect_to_lab(lab, tmp_path) as session:
            inventory, _ = await inspect_host(session)
            planned = await tuning.plan(session, inventory, lab.test_nic.name, None)
            # One tweak: telling several apart is the demo test's (pi4-ax88179).
            tweaks = tuple(i.tweak.id for i in planned.items if i.applicable)[:1]
            assert tweaks, planned
            paths = sorted({c.path for i in planned.items for c in i.changes if c.path})
            before = await _raw_knobs(session, paths)
            options = FlowOptions(plan=plan, nic=lab.test_nic.name, guard_seconds=30,
                                  tweak_ids=tweaks)  # fmt: skip
            result = await one_click(session, inventory, options, history,
                                     on_event=events.append, steps=FIND_FLOW_STEPS)  # fmt: skip
            assert await tuning.find_leftover(session) is None
            assert await _raw_knobs(session, paths) == before
        found = result.attribution
        assert found is not None and found.kept is None and not found.helpful
        assert {c.tweak_id for c in found.contributions} | set(found.not_measured) == set(tweaks)
        for c in found.contributions:  # each measured alone, with the tweak read back in force
            run = history.run(c.run_id or 0)
            assert run.tuning_state is not None and run.tuning_state["tweaks"] == [c.tweak_id]
            assert c.effects and all(not math.isnan(e.low) for e in c.effects), c
        (done,) = [e for e in events if isinstance(e, FlowStep) and e.step == "find"
                   and e.status == "done"]  # fmt: skip
        assert done.detail.startswith(NOTHING_TO_GAIN), done
        # Each step is said in the log, without a countdown of its own: the flow's bar is the
        # one estimate (walk 15: "about 3:09 left" in the log beside the bar's 2:36).
        left = [e.message for e in events if isinstance(e, TuningEvent)
                and e.message.startswith("Find what helps:")]  # fmt: skip
        alone = [line for line in left if " on its own (" in line]
        assert len(alone) == len(tweaks) and re.search(r"\(1 of \d+\)$", alone[0]), left
        assert not any("left" in line for line in left), left
        # ... and the flow's time left was told how many measurements were still to come: each
        # tweak and the baseline again, which runs only when a tweak seemed to change something.
        to_come = [e.measurements for e in events if isinstance(e, StepPlanned)]
        again = [1] if found.reference is not None else []
        assert to_come == [n + 1 for n in range(len(tweaks), 0, -1)] + again, to_come
        assert (len(left) > len(alone)) == bool(again), left


@pytest.mark.parametrize("profile", ["pi5-macb", "pi3bplus-lan78xx", "cm4-i340-igb"])
async def test_one_click_runs_through_on_the_driver_profiles(
    lab_factory: Any, tmp_path: Path, profile: str
) -> None:
    """The profiles whose drivers answer as the kernel's source says (issue 21: macb on the
    RP1, lan78xx, igb with its queues): the flow runs from baseline to results, and a tweak
    that would renegotiate or restart the SSH NIC's link is never applied without consent."""
    result, events, history = await _one_click(lab_factory, tmp_path, profile)
    with history:
        steps = [(e.step, e.status) for e in events if isinstance(e, FlowStep)]
        assert steps[0] == ("baseline", "started") and steps[-1] == ("results", "done"), steps
        assert result.advice is not None
        restarting = [
            o
            for o in result.tuning_outcomes
            if o.status == "applied" and o.tweak_id in ("nic-rings", "eee-off")
        ]
        assert restarting == [], restarting
