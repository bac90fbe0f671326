"""One tweak planned for one NIC as plan() asks its kind's planner (the board running `kernel`,
that NIC its only one, the tweak alone selected), from the Pi's answers to its reads. Helpers for
the audits that each built the catalog tweak, the inventory, the planner's Context and the
answers by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts


def plan_one(
    tweak_id: str,
    found: Facts,
    nic: Nic,
    kernel: str,
    options: Mapping[str, Any] | None = None,
) -> PlannedTweak:
    """`tweak_id` planned for `nic` from what `found` read on the Pi, with the user's `options`
    (allow_link_restart, path_supports_jumbo ...)."""
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    ctx = Context(tweak, found, inventory, nic, dict(options or {}), {}, (tweak_id,))
    return PLANNERS[tweak.kind](ctx)


def pi_answer(key: str, stdout: str, code: int = 0, stderr: str = "") -> StepResult:
    """The Pi's answer to the read `key` (its output, exit code and errors), as a batch gives it
    to the planners in Facts.steps."""
    return StepResult(batch.Step(("true",), key), code, stdout.encode(), stderr.encode())
