"""A tuning session found on the Pi at connect: what it is, in words, and what can be done.

Written once for both front ends; the CLI adds its commands, the GUI its buttons.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sbctune.textsafe import visible
from sbctune.tuning import LeftoverSession
from sbctune.wording import counted


@dataclass(frozen=True)
class LeftoverNotice:
    headline: str  # one sentence: what is on the Pi
    detail: str  # what happens if the user does nothing
    urgent: bool  # it will never revert by itself
    can_keep: bool  # still guarded: keeping it means confirming it


def leftover_notice(leftover: LeftoverSession, now: float | None = None) -> LeftoverNotice:
    # The session's fields come from the Pi: shown only through the one safe boundary.
    sid = visible(leftover.id)
    nic = f" on {visible(leftover.nic)}" if leftover.nic else ""
    count = len(leftover.outcomes)
    what = f"{counted(count, 'tweak')}{nic}" if count else f"tweaks{nic}"
    if leftover.orphaned:
        return LeftoverNotice(
            f"Tuning session {sid} ({what}) was cut short before it finished.",
            "Its auto-revert guard is not running, so it will NOT put the values back by itself.",
            urgent=True,
            can_keep=False,
        )
    if leftover.state == "armed":
        left = ""
        if leftover.guard_deadline is not None:
            seconds = max(0, round(leftover.guard_deadline - (now or time.time())))
            left = f" in about {seconds} s"
        return LeftoverNotice(
            f"Tuning session {sid} ({what}) is waiting for confirmation.",
            f"Its guard puts the values back by itself{left} unless it is kept.",
            urgent=False,
            can_keep=True,
        )
    if leftover.state == "revert_failed":
        return LeftoverNotice(
            f"Tuning session {sid} ({what}) could not be put back completely.",
            "Some of its values may still be in force; reverting again retries the rest.",
            urgent=True,
            can_keep=False,
        )
    return LeftoverNotice(
        f"Tuning session {sid} ({what}) is {visible(leftover.state)} on this Pi.",
        "Its values stay in force" + (" across reboots." if leftover.persist else " until reboot."),
        urgent=False,
        can_keep=False,
    )
