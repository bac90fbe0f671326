"""Tuning sessions: plan, apply under the auto-revert guard, confirm, revert, find leftovers.

The work is split by step; this module keeps the names other code imports:
- `planning`: plan, persist preview (reads the Pi, writes nothing);
- `applying`: apply, step by step (snapshot, create + lock, arm, write, persist, settle);
- `changes`: writing changes, reading them back, judging each tweak;
- `lifecycle`: confirm, revert, status (values read back from the Pi), sessions cut short;
- `boot_session`: reboots, test boots and `boot-commit`;
- `record`: the session record's schema (the Pi's session.json and the history's copy);
- `scripts` / `remote_state`: what the Pi keeps and how it is listed.
"""

from __future__ import annotations

from sbctune.tuning.applying import (
    DEFAULT_GUARD_SECONDS,
    MIN_GUARD_SECONDS,
    EventSink,
    apply,
    arm_steps,
    new_session_id,
)
from sbctune.tuning.boot_session import (
    boot_commit_plan,
    makes_test_boot,
    needs_reboot,
    reboot,
    tryboot_active,
)
from sbctune.tuning.errors import SessionBusy, SessionFormatError, TuningError
from sbctune.tuning.lifecycle import (
    check_id,
    confirm,
    find_leftover,
    revert,
    revert_orphaned,
    status,
)
from sbctune.tuning.planning import PREVIEW_ID, persist_preview, plan
from sbctune.tuning.reach import Reconnect
from sbctune.tuning.record import public_options

_check_id = check_id  # the name older callers use
make_plan = plan

__all__ = [
    "DEFAULT_GUARD_SECONDS",
    "MIN_GUARD_SECONDS",
    "PREVIEW_ID",
    "EventSink",
    "Reconnect",
    "SessionBusy",
    "SessionFormatError",
    "TuningError",
    "apply",
    "arm_steps",
    "boot_commit_plan",
    "check_id",
    "confirm",
    "find_leftover",
    "make_plan",
    "makes_test_boot",
    "needs_reboot",
    "new_session_id",
    "persist_preview",
    "plan",
    "public_options",
    "reboot",
    "revert",
    "revert_orphaned",
    "status",
    "tryboot_active",
]
