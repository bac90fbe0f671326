"""SAMPLE DATA for `sbctune --self-test` only: clearly labelled, never shown otherwise.

The inventory is parsed from a lab profile's real captures (resources/lab/profiles/
pi4-ax88179, whose SOURCE.md names the write-up). The figures follow that profile's link
model (736 Mbit/s Pi→PC, 949 PC→Pi); the "after" run and the CPU load are made up to fill
the pages, and the device is named so nobody mistakes it for a Pi.
"""

from __future__ import annotations

import datetime as dt

from sbctune.advice.inspect import inspect_bundle
from sbctune.history import History
from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory
from sbctune.measure.outcome import Interval as LiveInterval_
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval, PiLoad, TestStarted
from sbctune.measure.sampler import CpuLoad, PiSample
from sbctune.resources import resource_root
from sbctune.tuning import Change, PlannedTweak, TuningPlan, load_tweaks
from sbctune.ui.controllers.live import LiveMeasurement

LABEL = "SAMPLE DATA (self-test)"
PROFILE = "pi4-ax88179"


def sample_inventory() -> Inventory:
    inventory = inspect_bundle(resource_root() / "lab" / "profiles" / PROFILE)
    inventory.board.model = inventory.board.model or f"{LABEL}: profile {PROFILE}"
    return inventory


def _test(direction: str, mean: float) -> TestRecord:
    intervals = [Interval(float(t), mean * (0.97 + 0.01 * (t % 4)), 0) for t in range(1, 12)]
    return TestRecord(
        direction=direction,  # type: ignore[arg-type]
        mode="half",
        mean_mbps=mean,
        min_mbps=mean * 0.97,
        max_mbps=mean * 1.01,
        stdev_mbps=mean * 0.01,
        sender_mbps=mean,
        receiver_mbps=mean,
        retransmits=0,
        intervals=intervals,
    )


def sample_runs(history: History) -> tuple[int, RunRecord, RunRecord]:
    device = history.add_device("sample.invalid", 22, "sample", name=LABEL)
    assert device.id is not None
    now = dt.datetime.now(dt.timezone.utc)
    runs = []
    for offset, figures, state in (
        (120, (736.0, 949.0), None),
        (0, (802.0, 949.0), {"session": "sample", "tweaks": ["rps-rfs", "xps"]}),
    ):
        run = RunRecord(
            device_id=device.id,
            started_at=now - dt.timedelta(seconds=offset),
            finished_at=now - dt.timedelta(seconds=offset - 25),
            plan_name="quick",
            nic="eth1",
            endpoint_kind="builtin",
            complete=True,
            note=LABEL,
            tuning_state=state,
            tests=[_test("pi_to_pc", figures[0]), _test("pc_to_pi", figures[1])],
        )
        history.save_run(run)
        runs.append(run)
    return device.id, runs[0], runs[1]


def _load(t: float) -> PiSample:
    cpus = [
        CpuLoad(0, 8, 0, 12, 9, 61, 0, 0, 10, 90),
        CpuLoad(1, 14, 0, 9, 0, 4, 0, 0, 73, 27),
        CpuLoad(2, 6, 0, 5, 0, 2, 0, 0, 87, 13),
        CpuLoad(3, 4, 0, 3, 0, 1, 0, 0, 92, 8),
    ]
    return PiSample(t, 0.5, 1000 + t, cpus, [9000, 300, 100, 50], [500, 20, 10, 5], [], None, None)


def sample_live(line_rate: float | None = 1000.0) -> LiveMeasurement:
    """A quick-plan run caught half-way through its second test."""
    plan = plan_named("quick")
    clock = iter(float(x) for x in range(10_000))
    live = LiveMeasurement(plan, line_rate, clock=lambda: next(clock))
    for index, spec in enumerate(plan.tests):
        live.feed(TestStarted(index, spec))
        seconds = spec.duration + spec.omit if index == 0 else 6
        for t in range(1, seconds + 1):
            mbps = (736.0 if index == 0 else 949.0) * (0.6 if t <= spec.omit else 0.99)
            live.feed(
                LiveInterval(
                    index,
                    spec,
                    spec.directions[0],
                    LiveInterval_(float(t), mbps, 0, omitted=t <= spec.omit),
                )
            )
        if index == 0:
            from sbctune.measure.runner import TestFinished

            live.feed(TestFinished(index, spec, ()))
    live.feed(PiLoad(_load(20.0)))
    return live


def sample_tuning_plan() -> TuningPlan:
    """Every tweak definition as a plan item, marked as sample data."""
    items = [
        PlannedTweak(
            tweak=t,
            applicable=True,
            reason=f"{LABEL}: not read from a Pi",
            commands=[f"# {LABEL}: the real page shows the exact commands here"],
            changes=[Change("sysctl", "sample.knob", "0", "1")],
        )
        for t in load_tweaks()
    ]
    return TuningPlan(nic="eth1", items=items)
