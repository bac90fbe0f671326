"""A tuning session found on the Pi at connect: what it is, in words, and what can be done.

Written once for both front ends; the CLI adds its commands, the GUI its buttons.
"""

from __future__ import annotations

import datetime as dt
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


# The states a kept or passing session can be found in, as the user reads them.
STATE_WORDS = {
    "confirmed": "was kept and is in force",
    "reverting": "is being put back",
    "reverted": "was put back",
    "prepared": "was being set up",
}


def _when(started_at: str) -> str:
    """ "Tuning applied 2026-11-23 10:15 UTC", or without a readable time "Tuning applied
    earlier": the session's id is the Pi's file name, not something to read."""
    try:
        stamp = dt.datetime.fromisoformat(started_at.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return "Tuning applied earlier"
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(dt.timezone.utc)
    return f"Tuning applied {stamp:%Y-%m-%d %H:%M} UTC"


def leftover_notice(leftover: LeftoverSession, now: float | None = None) -> LeftoverNotice:
    # The session's fields come from the Pi: shown only through the one safe boundary.
    sid = _when(leftover.started_at)
    nic = f" on {visible(leftover.nic)}" if leftover.nic else ""
    count = len(leftover.outcomes)
    what = f"{counted(count, 'tweak')}{nic}" if count else f"tweaks{nic}"
    if leftover.orphaned:
        return LeftoverNotice(
            f"{sid} ({what}) was cut short before it finished.",
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
            f"{sid} ({what}) is waiting for confirmation.",
            f"Its guard puts the values back by itself{left} unless it is kept.",
            urgent=False,
            can_keep=True,
        )
    if leftover.state == "revert_failed":
        return LeftoverNotice(
            f"{sid} ({what}) could not be put back completely.",
            "Some of its values may still be in force; reverting again retries the rest.",
            urgent=True,
            can_keep=False,
        )
    return LeftoverNotice(
        f"{sid} ({what}) {STATE_WORDS.get(leftover.state, 'is still')} on this Pi.",
        "Its values stay in force"
        + (" across reboots." if leftover.persist else " until reboot.")
        + " Revert it to measure a fresh baseline and tune again.",
        urgent=False,
        can_keep=False,
    )
