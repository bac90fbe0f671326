"""A step added to the one-click flow shows in `sbctune demo`'s progress with no CLI code of
its own: the command prints every step's title and outcome from the flow's events."""

from __future__ import annotations

import pytest

from sbctune.cli.demo_cmd import _Progress
from sbctune.inventory.model import Inventory
from sbctune.measure.plans import plan_named
from sbctune.workflow import FlowContext, FlowOptions, StepOutcome, StepSpec, run_steps


async def _latency(ctx: FlowContext) -> StepOutcome:
    return StepOutcome("done", "0.4 ms round trip")


async def test_demo_prints_a_new_step(capsys: pytest.CaptureFixture[str]) -> None:
    ctx = FlowContext(
        session=None,  # type: ignore[arg-type]  # this step never reaches the Pi
        inventory=Inventory(),
        inventory_id=1,
        options=FlowOptions(plan=plan_named("quick")),
        history=None,  # type: ignore[arg-type]
        emit=_Progress(),
        nic="eth0",
    )
    steps = (
        StepSpec("latency", "Latency test", _latency),
        StepSpec("jitter", "Jitter test", _latency, skip=lambda ctx: "no UDP on this Pi"),
    )
    await run_steps(ctx, steps)
    captured = capsys.readouterr()
    assert captured.out == ""  # progress never mixes with the result on stdout
    assert captured.err.splitlines() == [
        "==> Latency test",
        "   ✓ 0.4 ms round trip",
        "   - no UDP on this Pi",
    ]
