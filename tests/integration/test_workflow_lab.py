"""The workflow layer against the virtual Pi lab, without Qt and without the CLI: the steps a
front end runs one at a time (connect, inspect, measure) fill the typed state, and a cancelled
measurement keeps its tests. Real SSH, sudo and iperf3; nothing mocked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sbctune.history import History
from sbctune.lab.model import LabInfo
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import Event, LiveInterval
from sbctune.workflow import WorkflowState
from sbctune.workflow.connecting import connected_facts, inspect_pi
from sbctune.workflow.measuring import Measured, MeasureRequest, measure_and_keep
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

SHORT = plan_named("quick").with_overrides(duration=2, omit=0, streams=2, trials=1)


async def test_the_path_step_by_step_fills_the_state(module_lab: LabInfo, tmp_path: Path) -> None:
    lab = module_lab
    state = WorkflowState()
    changes: list[str] = []
    state.subscribe(changes.append)
    with History.open(tmp_path / "history.sqlite") as history:
        async with await connect_to_lab(lab, tmp_path) as session:
            info = await connected_facts(session)
            device = history.add_device(lab.host, lab.port, session.username)
            state.connected(session, info, device.id)
            assert info.user == lab.user and info.sudo == "password" and info.sudo_ok
            assert info.iperf3_pi is not None and info.iperf3_pi.startswith("iperf 3")

            found = await inspect_pi(session, history, state.device_id)
            state.inspected(found.inventory, found.inventory_id, found.nic)
            # The route to this PC leaves through the lab's test NIC: tested by default.
            assert state.nic == lab.test_nic.name and state.selected_nic is not None
            assert found.inventory_id is not None

            nic = state.selected_nic
            request = MeasureRequest(
                SHORT, nic=state.nic, nic_irqs=tuple(nic.irqs), inventory_id=state.inventory_id
            )
            measured = await measure_and_keep(session, history, request)
            state.measured("baseline", measured.record)
        stored = history.run(measured.record.id or 0)
    assert stored.complete and stored.nic == lab.test_nic.name
    assert stored.inventory_id == found.inventory_id and stored.tuning_state is None
    assert {t.direction for t in stored.tests} >= {"pi_to_pc", "pc_to_pi"}
    assert all(t.mean_mbps for t in stored.tests)
    assert state.runs == [measured.record]
    assert changes.count("results") >= 3  # connected, inspected, measured


async def test_a_cancelled_measurement_keeps_its_tests(module_lab: LabInfo, tmp_path: Path) -> None:
    lab = module_lab
    plan = plan_named("quick").with_overrides(duration=20, omit=0, streams=2)
    events: list[Event] = []
    kept: list[Measured] = []
    with History.open(tmp_path / "history.sqlite") as history:
        async with await connect_to_lab(lab, tmp_path) as session:
            request = MeasureRequest(plan, nic=lab.test_nic.name, options={"sample": False})
            task = asyncio.create_task(
                measure_and_keep(
                    session, history, request, on_event=events.append, on_partial=kept.append
                )
            )
            for _ in range(300):  # bounded: 30 s at most
                if sum(isinstance(e, LiveInterval) for e in events) >= 2 or task.done():
                    break
                await asyncio.sleep(0.1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        (partial,) = kept
        stored = history.run(partial.record.id or 0)
    assert not stored.complete and "cancelled" in stored.note
    (test,) = stored.tests
    assert test.mean_mbps and len(test.intervals) >= 2
