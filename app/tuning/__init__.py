"""Tuning: tweaks that are read, applied, verified and reverted under an auto-revert guard.

`plan` reads the Pi and lists, per tweak, what it would change and the exact commands;
`apply` runs them under a guard on the Pi that reverts unless `confirm` comes in time;
`revert` restores every original value; `find_leftover` finds a session left on the Pi
(`orphaned` when it was cut short and its guard is not running; `revert_orphaned` puts it
back); `status` reads back from the Pi what is really in force. One session at a time per
Pi: a second `apply` gets `SessionBusy`. The session record's schema (history and the Pi's
session.json) is `record.py`.
"""

from sbctune.tuning.catalog import TWEAK_IDS, load_tweaks
from sbctune.tuning.errors import SessionBusy, SessionFormatError
from sbctune.tuning.model import (
    AppliedSession,
    Change,
    LeftoverSession,
    LiveValue,
    PlannedTweak,
    TuningPlan,
    Tweak,
    TweakOutcome,
)
from sbctune.tuning.session import (
    DEFAULT_GUARD_SECONDS,
    TuningError,
    apply,
    confirm,
    find_leftover,
    plan,
    revert,
    revert_orphaned,
    status,
)

__all__ = [
    "DEFAULT_GUARD_SECONDS",
    "TWEAK_IDS",
    "AppliedSession",
    "Change",
    "LeftoverSession",
    "LiveValue",
    "PlannedTweak",
    "SessionBusy",
    "SessionFormatError",
    "TuningError",
    "TuningPlan",
    "Tweak",
    "TweakOutcome",
    "apply",
    "confirm",
    "find_leftover",
    "load_tweaks",
    "plan",
    "revert",
    "revert_orphaned",
    "status",
]
