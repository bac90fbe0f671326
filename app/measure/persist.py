"""Keep a measurement in the history store, filed under its device."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from sbctune.history import History
from sbctune.history.records import (
    Direction,
    Interval,
    Mode,
    RunRecord,
    TestRecord,
    TogetherRecord,
    UdpRecord,
)
from sbctune.measure.aggregate import AggregateRun
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.plans import Plan
from sbctune.remote import Target


def _when(text: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text) if text else None


def save_measurement(
    history: History,
    target: Target,
    user: str,
    run: MeasureRun,
    plan: Plan,
    inventory_id: int | None = None,
    tuning_state: dict[str, Any] | None = None,
    *,
    aggregate_id: str | None = None,
    together: Mapping[tuple[Direction, Mode], TogetherRecord] | None = None,
) -> int:
    """Store `run`; `tuning_state` records the tweaks in force while it ran; `aggregate_id`
    marks a run measured at the same time as other NICs' runs, `together` this NIC's figures
    over the time all of them ran, per direction and mode (see save_aggregate)."""
    device = history.add_device(target.host, target.port, user)
    assert device.id is not None
    record = RunRecord(
        device_id=device.id,
        started_at=_when(run.started) or dt.datetime.now(dt.timezone.utc),
        finished_at=_when(run.finished),
        plan_name=plan.name,
        plan={
            "title": plan.title,
            # with the tests: what `plan_from_stored` needs to run this plan again
            "extra_trials": plan.extra_trials,
            "steady_within": plan.steady_within,
            "tests": [vars(t) | {"directions": list(t.directions)} for t in plan.tests],
        },
        nic=run.nic,
        endpoint_kind=run.endpoint,
        iperf3_pi_version=run.iperf3_pi,
        iperf3_pc_version=run.iperf3_pc,
        inventory_id=inventory_id,
        tuning_state=tuning_state,
        complete=run.complete,
        note="; ".join(n for n in (run.route_warning, run.error) if n),
        route_warning=run.route_warning,
        aggregate_id=aggregate_id,
        pi_state=run.pi_state,
        latency=run.latency,
        udp=[
            UdpRecord(
                t.direction,
                t.udp_target_mbps,
                t.receiver_mbps,
                t.jitter_ms,
                t.lost,
                t.packets,
                t.lost_percent,
                t.out_of_order,
                t.complete,
            )
            for t in run.udp
        ],
        tests=[
            TestRecord(
                direction=t.direction,
                mode=t.mode,
                mean_mbps=t.mean_mbps,
                min_mbps=t.min_mbps,
                max_mbps=t.max_mbps,
                stdev_mbps=t.stdev_mbps,
                sender_mbps=t.sender_mbps,
                receiver_mbps=t.receiver_mbps,
                retransmits=t.retransmits,
                complete=t.complete,
                intervals=[Interval(i.t, i.mbps, i.retransmits) for i in t.intervals],
                pi_cpu=run.pi_cpu.get(str(t.test_index)),
                trial_means=list(t.trial_means),
                together=(together or {}).get((t.direction, t.mode)),
            )
            for t in run.tests
        ],
    )
    run_id = history.save_run(record)
    run.run_id = run_id
    return run_id


def save_aggregate(
    history: History,
    target: Target,
    user: str,
    agg: AggregateRun,
    plan: Plan,
    inventory_id: int | None = None,
    tuning_state: dict[str, Any] | None = None,
) -> list[int]:
    """Store every NIC's run of an aggregate, sharing its id, each with its figures over the
    time every NIC ran (what `advise` totals); returns the run ids in NIC order."""
    figures = [f for f in agg.figures() if f.together is not None]
    ids = []
    for nic, run in zip(agg.nics, agg.runs, strict=True):
        together = {
            (f.direction, f.mode): TogetherRecord(
                f.together.per_nic.get(nic) if f.total_mbps is not None else None,
                round(f.together.seconds, 2),
                round(f.together.longest_s, 2),
                f.note,
            )
            for f in figures
            if f.together is not None
        }
        kept = save_measurement(
            history, target, user, run, plan, inventory_id, tuning_state,
            aggregate_id=agg.id, together=together,
        )  # fmt: skip
        ids.append(kept)
    return ids
