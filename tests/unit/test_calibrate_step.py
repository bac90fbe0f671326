"""The one-click flow's optional A/A step: a second baseline with nothing changed, kept as a
calibration that the results' verdicts then use (no Pi needed: the measuring is stood in for
by runs already in the history)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Inventory
from sbctune.measure.plans import plan_named
from sbctune.workflow import FlowContext, FlowOptions, FlowStep, run_steps
from sbctune.workflow.steps import CALIBRATE, CALIBRATED_FLOW_STEPS, FLOW_STEPS
from tests.unit.export.seed_runs import START


class _Stored(FlowContext):
    """A flow context whose measurements are given runs, stored in a real history."""

    queue: list[RunRecord]

    async def measure(self, step: str, tuning_state: dict[str, Any] | None) -> RunRecord:
        run = self.queue.pop(0)
        self.history.save_run(run)
        return run


def _run(device_id: int, trials: list[float]) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=sum(trials) / 3, trial_means=trials)
    return RunRecord(device_id, START, "quick", nic="eth0", tests=[test])


async def test_calibrate_step_keeps_the_spread_and_is_optional(tmp_path: Path) -> None:
    assert CALIBRATE not in FLOW_STEPS and CALIBRATED_FLOW_STEPS[1] is CALIBRATE
    events: list[Any] = []
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi.local", 22, "pi")
        assert device.id is not None
        ctx = _Stored(session=None, inventory=Inventory(), inventory_id=1,  # type: ignore[arg-type]
                      options=FlowOptions(plan=plan_named("quick"), calibrate=True, tune=False),
                      history=history, emit=events.append, nic="eth0")  # fmt: skip
        ctx.queue = [_run(device.id, [736.0, 736.8, 738.8]), _run(device.id, [741.2, 733.8, 731.0])]
        steps = [s for s in CALIBRATED_FLOW_STEPS if s.id in ("baseline", "calibrate")]
        await run_steps(ctx, steps)
        done = [e for e in events if isinstance(e, FlowStep) and e.step == "calibrate"]
        assert done[-1].status == "done" and "run-to-run spread" in done[-1].detail
        found = history.latest_calibration(device.id, "eth0")
        assert found is not None and set(found.spread_mbps) == {"pi_to_pc/half"}
    events.clear()
    ctx.options = FlowOptions(plan=plan_named("quick"), tune=False)  # not asked for: skipped
    ctx.history = None  # type: ignore[assignment]  # a skipped step touches nothing
    await run_steps(ctx, [CALIBRATE])
    assert [(e.step, e.status) for e in events if isinstance(e, FlowStep)] == [
        ("calibrate", "skipped")
    ]
