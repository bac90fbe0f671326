"""Tuning: tweaks that are read, applied, verified and reverted under an auto-revert guard.

`plan` reads the Pi and lists, per tweak, what it would change and the exact commands;
`apply` runs them under a guard on the Pi that reverts unless `confirm` comes in time;
`revert` restores every original value; `find_leftover` finds a session left on the Pi
(`orphaned` when it was cut short and its guard is not running; `revert_orphaned` puts it
back); `status` reads back from the Pi what is really in force. One session at a time per
Pi: a second `apply` gets `SessionBusy`. The session record's schema (history and the Pi's
session.json) is `record.py`.

The names below are loaded on first use (PEP 562, `sbctune.lazy`): `tuning.scripts` or
`tuning.words` alone do not load the session code and SSH (issue 22).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.lazy import exports, names_in

if TYPE_CHECKING:
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

if not TYPE_CHECKING:  # mypy sees the imports above, and a typo stays an error
    __getattr__, __dir__ = exports(
        __name__,
        names_in("catalog", ("TWEAK_IDS", "load_tweaks"))
        | names_in("errors", ("SessionBusy", "SessionFormatError"))
        | names_in(
            "model",
            (
                "AppliedSession",
                "Change",
                "LeftoverSession",
                "LiveValue",
                "PlannedTweak",
                "TuningPlan",
                "Tweak",
                "TweakOutcome",
            ),
        )
        | names_in(
            "session",
            (
                "DEFAULT_GUARD_SECONDS",
                "TuningError",
                "apply",
                "confirm",
                "find_leftover",
                "plan",
                "revert",
                "revert_orphaned",
                "status",
            ),
        ),
    )
