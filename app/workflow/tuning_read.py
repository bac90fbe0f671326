"""The tuning a run ran under, read back from the Pi (never the tuning that was planned).

At a run's start and at its end the tuning sessions the Pi keeps are listed and the values of
the knobs they touched are read back (two SSH round trips). A tweak is in force when every
value it set reads back as set. The run stores both readings and whether they differ
(`sbctune.history.run_tuning` words it for every front end and export): a guard that fired
mid-run, or a revert from elsewhere, marks the run "tuning changed during this run".

In between, the Pi sampler reads the session's state file and the kernel value files its
tweaks set with every sample, on its own channel (no extra round trip; `watch`), and the run
keeps what they read at the end of each test: a change is found at the test where it
happened (`changed_at_test`). Changes that need a command to read (ethtool, services,
NetworkManager) are read at the start and the end only.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sbctune.errors import UserError
from sbctune.tuning import scripts
from sbctune.tuning.changes import read_back
from sbctune.tuning.knobs import is_knob
from sbctune.tuning.model import Change, LiveValue
from sbctune.tuning.remote_state import StoredSession, list_sessions

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

log = logging.getLogger(__name__)

# Outcomes whose tweak holds the session's new value while in force: "already" (so before the
# session, walk 15 problem 3) is not the session's tuning.
_SET = ("applied",)
MAX_TWEAKS = 50  # a reading is bounded: remote records are untrusted


@dataclass(frozen=True)
class TuningReading:
    """What the Pi said at one moment: its newest active session and the tweaks in force."""

    session: str | None = None
    state: str | None = None  # armed | confirmed | reverting | ... (None: no active session)
    in_force: tuple[str, ...] = ()  # tweak ids whose every value reads back as set
    not_in_force: tuple[str, ...] = ()  # tweaks of the session whose values read otherwise
    readable: bool = True  # False: the Pi could not be read (the run says "not known")
    values: dict[str, str | None] = field(default_factory=dict)  # knob -> value as read
    guard_seconds: int | None = None  # the newest session's guard time
    watch: tuple[str, ...] = ()  # files the sampler reads each sample: state, knobs in force

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "state": self.state,
            "in_force": list(self.in_force),
            "not_in_force": list(self.not_in_force),
            "readable": self.readable,
            "values": dict(self.values),
            "guard_seconds": self.guard_seconds,
        }

    @property
    def tuned(self) -> bool:
        return bool(self.in_force)


def _active(sessions: list[StoredSession]) -> list[StoredSession]:
    return [s for s in sessions if s.active and s.record is not None]


async def read_tuning(session: Session) -> TuningReading:
    """The Pi's tuning now; a failed read gives `readable=False`, never fails the run."""
    try:
        sessions = await list_sessions(session)
        active = _active(sessions)
        changes = [c for s in active if s.record for c in s.record.touched()]
        live = await read_back(session, changes)
    except asyncio.CancelledError:
        raise
    except (UserError, OSError, ValueError) as exc:
        log.warning("the Pi's tuning could not be read back: %s", exc)
        return TuningReading(readable=False)
    return _reading(active, changes, live)


def _reading(
    active: list[StoredSession], changes: list[Change], live: list[LiveValue]
) -> TuningReading:
    """The reading from the active sessions (newest first), their changes and those read back."""
    in_force, not_in_force = _in_force(active, live)
    values = {v.change.target[:200]: v.value[:200] if v.value is not None else None
              for v in live[: MAX_TWEAKS * 4]}  # fmt: skip
    newest = active[0] if active else None
    watch = [f"{scripts.session_dir(newest.id)}/state"] if newest else []
    watch += [c.path for c in changes if is_knob(c) and c.needed and c.path]
    return TuningReading(
        session=newest.id if newest else None,
        state=newest.state if newest else None,
        in_force=tuple(dict.fromkeys(in_force)),
        not_in_force=tuple(dict.fromkeys(not_in_force)),
        values=values,
        guard_seconds=newest.record.guard_seconds if newest and newest.record else None,
        watch=tuple(dict.fromkeys(watch))[:MAX_TWEAKS],
    )


def _in_force(active: list[StoredSession], live: list[LiveValue]) -> tuple[list[str], list[str]]:
    """The sessions' applied tweaks whose every change read back reads as set, and the others."""
    state_of = {id(v.change): v for v in live}
    in_force: list[str] = []
    not_in_force: list[str] = []
    for stored in active:
        assert stored.record is not None
        for outcome in stored.record.tweaks[:MAX_TWEAKS]:
            if outcome.status not in _SET:
                continue
            held = all(state_of[id(c)].state == "in_force" for c in outcome.changes
                       if id(c) in state_of)  # fmt: skip
            (in_force if held else not_in_force).append(outcome.tweak_id)
    return in_force, not_in_force


def changed_at_test(watch: dict[str, Any]) -> int | None:
    """The first test (1-based) at whose end a watched file read otherwise than before the
    first test (`MeasureRun.tuning_watch`); None when none did, or nothing was watched."""
    first = watch.get("first")
    tests = watch.get("tests")
    if not isinstance(first, dict) or not isinstance(tests, dict):
        return None
    for key in sorted((k for k in tests if (str(k).isascii() and str(k).isdigit())), key=int):
        if tests[key] != first:
            return int(key) + 1
    return None


def run_tuning(
    start: TuningReading, end: TuningReading, changed_at: int | None = None
) -> dict[str, Any] | None:
    """What a run stores as `tuning_state`, from its two readings and the test at whose end
    the sampler first saw a change: None when the Pi had no tuning in force at either end
    (and none was seen). `tweaks` lists only the tweaks in force at both ends."""
    if (not start.tuned and not end.tuned and start.readable and end.readable
            and changed_at is None):  # fmt: skip
        return None
    changed = (
        changed_at is not None
        or not start.readable
        or not end.readable
        or start.session != end.session
        or start.in_force != end.in_force
        or start.values != end.values
    )
    both = [t for t in start.in_force if t in end.in_force]
    return {
        "session": end.session or start.session,
        "state": end.state,
        "tweaks": both,
        "read_back": True,
        "changed_during_run": changed,
        **({"changed_at_test": changed_at} if changed_at is not None else {}),
        "start": start.to_json(),
        "end": end.to_json(),
    }
