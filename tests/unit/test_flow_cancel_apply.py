"""A cancel during Tune & Measure's Tune step (walk19: it had no Cancel): the session the
apply had begun is put back and read back, or the Pi had none yet and is said unchanged."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Sequence
from typing import Any

import pytest

from sbctune.inventory.model import Inventory
from sbctune.measure.plans import plan_named
from sbctune.remote import RemoteError
from sbctune.tuning.model import Change, LiveValue
from sbctune.tuning.remote_state import StoredSession
from sbctune.workflow import (
    FlowCancelled,
    FlowContext,
    FlowOptions,
    StepOutcome,
    StepSpec,
    run_steps,
)

one_click_module = importlib.import_module("sbctune.workflow.one_click")

CHANGE = Change("sysctl", "net.core.rmem_max", "212992", "4194304")


def _context(events: list[Any]) -> FlowContext:
    return FlowContext(
        session=None,  # type: ignore[arg-type]  # the Pi's side is replaced below
        inventory=Inventory(),
        inventory_id=1,
        options=FlowOptions(plan=plan_named("quick")),
        history=None,  # type: ignore[arg-type]
        emit=events.append,
        nic="eth0",
    )


async def _cancel_mid_apply(on_pi: list[str] | None, reads: str) -> tuple[list[Any], list[str]]:
    """Run a Tune step that has begun session "s1" and cancel it while it applies (on_pi None:
    the Pi's session list cannot be read)."""
    reverted: list[str] = []

    async def sessions(_session: object) -> list[StoredSession]:
        if on_pi is None:
            raise RemoteError("the SSH connection was lost")
        return [StoredSession(i, "armed", None, 1) for i in on_pi]

    async def revert(_session: object, session_id: str, **_kw: object) -> list[str]:
        reverted.append(session_id)
        return [session_id]

    async def read_back(_session: object, changes: Sequence[Change]) -> list[LiveValue]:
        return [LiveValue(c, c.before, reads) for c in changes]  # type: ignore[arg-type]

    applying = asyncio.Event()

    async def tune(ctx: FlowContext) -> StepOutcome:
        ctx.applying = ("s1", [CHANGE])
        applying.set()
        await asyncio.sleep(60)  # the writes, cancelled below
        raise AssertionError("cancelled before this")

    events: list[Any] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(one_click_module, "list_sessions", sessions)
        mp.setattr(one_click_module.tuning_api, "revert", revert)
        mp.setattr(one_click_module, "read_back", read_back)
        task = asyncio.ensure_future(run_steps(_context(events), (StepSpec("tune", "T", tune),)))
        await asyncio.wait_for(applying.wait(), 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    return events, reverted


async def test_a_cancel_mid_apply_reverts_the_session_and_reads_it_back() -> None:
    events, reverted = await _cancel_mid_apply(["s1"], "original")
    assert reverted == ["s1"]
    words = [e.words for e in events if isinstance(e, FlowCancelled)]
    assert words == ["Cancelled: the tuning was reverted; every value it touched reads back as "
                     "before."]  # fmt: skip


async def test_a_cancel_mid_apply_says_which_values_did_not_come_back() -> None:
    events, _reverted = await _cancel_mid_apply(["s1"], "tuned")
    (cancelled,) = [e for e in events if isinstance(e, FlowCancelled)]
    assert "net.core.rmem_max" in cancelled.words and "otherwise" in cancelled.words


async def test_a_cancel_before_the_session_reached_the_pi_leaves_it_as_it_was() -> None:
    events, reverted = await _cancel_mid_apply([], "original")
    assert reverted == []
    (cancelled,) = [e for e in events if isinstance(e, FlowCancelled)]
    assert cancelled.words == "Cancelled before any tuning was applied: your Pi is as it was."


async def test_a_cancel_mid_apply_that_cannot_reach_the_pi_does_not_say_it_is_back() -> None:
    events, reverted = await _cancel_mid_apply(None, "original")
    assert reverted == []
    (cancelled,) = [e for e in events if isinstance(e, FlowCancelled)]
    assert "could not check or revert the Pi now" in cancelled.words
    assert "whatever was already applied is put back by the auto-revert guard" in cancelled.words
    assert "as it was" not in cancelled.words and "reads back" not in cancelled.words
