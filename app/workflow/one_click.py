"""The one-click flow: baseline → recommended safe tweaks under the guard → measure again →
results. The GUI's "Tune & Measure" and the CLI's `sbctune demo` both drive this one function;
the steps themselves are declared in `sbctune.workflow.steps`.

Cancelling the task at any point stops the measurement (the runner cleans up both sides),
keeps the tests measured so far (`PartialKept`), and reverts whatever tuning this flow applied,
before the cancellation propagates.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sbctune import tuning as tuning_api
from sbctune.advice.inspect import raw_json
from sbctune.history import History
from sbctune.inventory.collect import Collection
from sbctune.inventory.model import Inventory
from sbctune.measure import runner
from sbctune.remote import RemoteError
from sbctune.tuning.changes import read_back
from sbctune.tuning.errors import TuningError
from sbctune.tuning.model import AppliedSession, Change
from sbctune.tuning.remote_state import list_sessions
from sbctune.workflow.device_name import read_device_name
from sbctune.workflow.flow_types import FlowCancelled, FlowEvent, FlowResult, FlowStep
from sbctune.workflow.steps import FLOW_STEPS, FlowContext, FlowOptions, StepSpec, announce_tweaks

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

log = logging.getLogger(__name__)


async def one_click(
    session: Session,
    inventory: Inventory,
    options: FlowOptions,
    history: History,
    *,
    on_event: Callable[[FlowEvent], None] | None = None,
    collection: Collection | None = None,
    inventory_id: int | None = None,
    steps: Sequence[StepSpec] = FLOW_STEPS,
) -> FlowResult:
    """`collection`: the raw outputs behind `inventory`, kept with it so that the history can
    export a diagnostics bundle later. `inventory_id`: the inventory is already in the
    history under this id (the GUI saves it when it inspects)."""
    emit: Callable[[FlowEvent], None] = on_event or (lambda event: None)
    target = session.target
    name = await read_device_name(session, inventory.board.model)  # the window's rule
    device = history.add_device(  # the hostname the app shows, if known, stays the name
        target.host, target.port, session.username, name=name, keep_name=True
    )
    assert device.id is not None
    if inventory_id is None:
        stored = inventory.to_json()
        if collection is not None:
            stored["raw"] = raw_json(collection)
        inventory_id = history.save_inventory(device.id, stored)
    # The NIC under test: the one asked for, else the one the route to this PC leaves through.
    nic = options.nic or (await runner.find_path(session, None)).nic
    nic_info = inventory.nic(nic) if nic else None
    ctx = FlowContext(
        session=session,
        inventory=inventory,
        inventory_id=inventory_id,
        options=options,
        history=history,
        emit=emit,
        nic=nic,
        irqs=tuple(nic_info.irqs) if nic_info else (),
    )
    return await run_steps(ctx, steps)


async def _revert_on_cancel(ctx: FlowContext, applied: AppliedSession) -> str:
    """Revert the flow's tuning and say what the Pi reads back afterwards."""
    await tuning_api.revert(ctx.session, applied.id, history=ctx.history)
    changes = [c for o in applied.outcomes for c in o.changes]
    if not changes:
        return "Cancelled: the tuning was reverted (it had changed nothing)."
    return await _read_back_words(ctx, changes)


async def _read_back_words(ctx: FlowContext, changes: Sequence[Change]) -> str:
    try:
        live = await read_back(ctx.session, changes)
    except (RemoteError, OSError) as exc:
        return f"Cancelled: the tuning was reverted, but its values could not be read back ({exc})."
    differ = [v.change.target for v in live if v.state != "original"]
    if differ:
        return ("Cancelled: the tuning was reverted, but these read back otherwise than before: "
                + ", ".join(differ[:10]) + ".")  # fmt: skip
    return "Cancelled: the tuning was reverted; every value it touched reads back as before."


async def _revert_cut_apply(ctx: FlowContext, session_id: str, changes: Sequence[Change]) -> str:
    """A cancel while the tweaks were being applied (walk19: the Tune step had no Cancel):
    the session, if the Pi has it yet, is put back by its revert.sh, which from its creation
    covers every change it may make, then read back. If that cannot run now, the guard on the
    Pi puts it back when its time runs out."""
    try:
        ours = [s for s in await list_sessions(ctx.session) if s.active and s.id == session_id]
        if not ours:
            return "Cancelled before any tuning was applied: your Pi is as it was."
        await tuning_api.revert(ctx.session, session_id, history=ctx.history)
    except (TuningError, RemoteError, OSError) as exc:
        # Nothing here was read back: whether any write landed is not known, so say what the
        # guard (armed before the first write) does, not that the Pi is back.
        return (f"Cancelled while applying: sbctune could not check or revert the Pi now "
                f"({exc}); whatever was already applied is put back by the auto-revert guard "
                f"on the Pi within {ctx.options.guard_seconds} s.")  # fmt: skip
    return await _read_back_words(ctx, changes)


async def run_steps(ctx: FlowContext, steps: Sequence[StepSpec]) -> FlowResult:
    """Each step in order, announced before and after; on cancel, revert what was applied."""
    ctx.result = result = FlowResult(ctx.inventory_id)
    try:
        await announce_tweaks(ctx, steps)
        for spec in steps:
            reason = spec.skip(ctx)
            if reason is not None:
                ctx.emit(FlowStep(spec.id, "skipped", reason))
                continue
            ctx.emit(FlowStep(spec.id, "started", spec.title))
            outcome = await spec.run(ctx)
            result.baseline, result.after = ctx.baseline, ctx.after
            ctx.emit(FlowStep(spec.id, outcome.status, outcome.detail, outcome.run_id))
    except asyncio.CancelledError:
        words = "Cancelled before any tuning was applied: your Pi is as it was."
        if ctx.applied is not None:
            log.info("flow cancelled: reverting tuning session %s", ctx.applied.id)
            applied = ctx.applied
            words = await asyncio.shield(_revert_on_cancel(ctx, applied))
            applied.state = "reverted"
            ctx.tuning_now(applied, "reverted")
        elif ctx.applying is not None:
            log.info("flow cancelled while applying: reverting session %s", ctx.applying[0])
            words = await asyncio.shield(_revert_cut_apply(ctx, *ctx.applying))
            ctx.applying = None
        ctx.emit(FlowCancelled(words))
        raise
    result.baseline, result.after = ctx.baseline, ctx.after
    if ctx.applied is None:
        result.tuning = None  # applied but not kept: nothing is in force
    return result
