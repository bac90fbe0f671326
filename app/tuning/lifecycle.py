"""After apply: confirm, revert, status (read back from the Pi), and sessions left behind.

A session "armed" or "prepared" whose guard is not running was cut short (sbctune killed
while arming, or a reboot ended the guard): it will not revert by itself. `find_leftover`
reports it (`orphaned`), `revert_orphaned` puts it back, and a new `apply` is refused until
it is reverted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sbctune.history import History
from sbctune.tuning import link_wait, revert_link, scripts
from sbctune.tuning.changes import read_back
from sbctune.tuning.errors import SessionBusy, TuningError
from sbctune.tuning.history_sync import mark
from sbctune.tuning.model import LeftoverSession
from sbctune.tuning.remote_state import StoredSession, list_sessions

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

READ_BACK_SESSIONS = 5  # `status` reads back the values of the newest few sessions
# restores that drop the link (rings, EEE, pause, channels, MTU: one wait each, at most)
REVERT_LINK_WAITS = 5
EventSink = Callable[[str], None]

_NOT_WAITING_HINT = (
    "Apply the tweaks again (`sbctune tune apply HOST`) and confirm within the guard time; "
    "--guard SECONDS gives more time. `sbctune tune status HOST` shows every session."
)


async def confirm(
    session: Session, session_id: str | None = None, *, history: History | None = None
) -> str:
    """Disarm the guard: the session's values stay. Returns the session's id."""
    stored = await _pick(session, session_id, ("armed",))
    directory = scripts.session_dir(stored.id)
    result = await session.run(["sh", "-c", scripts.CONFIRM, "sh", directory], sudo=True)
    state = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "unknown"
    if state != "confirmed":
        mark(history, session, stored.id, state)
        raise TuningError(
            f"Session {stored.id} could not be confirmed: it is {state}.",
            "The guard time ran out before the confirmation and the Pi put the values back. "
            "Apply again with a longer --guard.",
        )
    mark(history, session, stored.id, "confirmed")
    return stored.id


async def _pick(session: Session, session_id: str | None, states: Sequence[str]) -> StoredSession:
    sessions = await list_sessions(session)
    if session_id is not None:
        check_id(session_id)
        found = next((s for s in sessions if s.id == session_id), None)
        if found is None:
            raise TuningError(f"The Pi has no tuning session {session_id}.",
                              "`sbctune tune status HOST` lists the sessions.")  # fmt: skip
        if found.state not in states:
            raise TuningError(f"Session {session_id} is {found.state}, not waiting for "
                              "confirmation.", _NOT_WAITING_HINT)  # fmt: skip
        _refuse_orphan(found)
        return found
    found = next((s for s in sessions if s.state in states), None)
    if found is None:
        newest = sessions[0] if sessions else None
        if newest is not None and newest.state == "reverted":
            raise TuningError(
                "There is no tuning session on the Pi waiting for confirmation: the newest, "
                f"{newest.id}, was already put back (its guard time ran out, or it was "
                "reverted).",
                _NOT_WAITING_HINT,
            )
        raise TuningError(
            "There is no tuning session on the Pi waiting for confirmation.",
            "`sbctune tune status HOST` shows the sessions; apply one with `sbctune tune apply`.",
        )
    _refuse_orphan(found)
    return found


def _refuse_orphan(stored: StoredSession) -> None:
    """Confirming a session cut short would keep values nobody verified."""
    if stored.guard_running is False:
        raise TuningError(
            f"Session {stored.id} was cut short (its auto-revert guard is not running), so it "
            "cannot be confirmed.",
            "Revert it with `sbctune tune revert HOST` and apply again.",
        )


def check_id(session_id: str) -> None:
    """A session id typed by the user: its form is checked before it goes near a path."""
    if not scripts.SESSION_ID.match(session_id):
        raise TuningError(
            f"“{session_id}” is not a tuning session id.",
            "`sbctune tune status HOST` lists the sessions with their ids.",
        )


async def run_revert(
    session: Session, session_id: str, *, nic: str = "", on_event: EventSink | None = None
) -> str:
    """Run the session's revert.sh on the Pi (as root); its final state, or TuningError.
    A restore that drops the link waits there for it (scripts.revert_script, link_wait), so
    what runs next (the next measurement of Find what helps) finds the link up; `on_event`
    is told what the Pi saw of each such wait (the link of `nic`)."""
    directory = scripts.session_dir(session_id)
    result = await session.run(
        ["sh", "-c", 'sh "$1/revert.sh" manual; cat "$1/state"', "sh", directory],
        sudo=True,
        timeout=120 + REVERT_LINK_WAITS * link_wait.STEP_SECONDS,
    )
    lines = result.stdout.strip().splitlines()
    state = lines[-1] if lines else "unknown"
    for line in lines[:-1][-REVERT_LINK_WAITS:]:
        if on_event is not None and line.startswith(link_wait.WORD + " "):
            shown = link_wait.nic_name(nic)
            on_event(link_wait.words(link_wait.parse(line, shown), shown))
    if state != "reverted":
        log = await session.run(["tail", "-n", "5", f"{directory}/revert.log"], timeout=15)
        raise TuningError(
            f"Session {session_id} was not fully reverted (it is {state}).",
            "What failed: "
            + " | ".join(log.stdout.strip().splitlines()[-3:])
            + f". Run `sudo sh {directory}/revert.sh` on the Pi to try again.",
        )
    return state


async def revert(
    session: Session,
    session_id: str | None = None,
    *,
    history: History | None = None,
    on_event: EventSink | None = None,
) -> list[str]:
    """Put back every value of a session (by default: every active one, newest first).

    Returns the ids reverted. A session older than another active one cannot be reverted on
    its own (the newer one's snapshot was taken on top of it)."""
    sessions = [s for s in await list_sessions(session) if s.active]
    if session_id is not None:
        check_id(session_id)
        index = next((i for i, s in enumerate(sessions) if s.id == session_id), None)
        if index is None:
            raise TuningError(
                f"The Pi has no active tuning session {session_id}.",
                "`sbctune tune status HOST` lists the sessions.",
            )
        if index > 0:
            raise TuningError(
                f"Session {session_id} has a newer session on top of it ({sessions[0].id}).",
                "Revert the newer one first, or revert all with `sbctune tune revert HOST`.",
            )
        sessions = sessions[:1]
    reverted = []
    for stored in sessions:
        nic = stored.record.nic if stored.record else ""
        left = None
        if on_event is not None and stored.record is not None and nic:
            # the same words as apply before the wait (walk 22: revert was silent until done)
            changes = stored.record.touched()
            facts = await revert_link.link_facts_read(session, nic, changes)
            ahead = revert_link.ahead_words(facts, changes)
            if ahead:
                on_event(ahead)
            left = revert_link.left_words(facts, changes)
        await run_revert(session, stored.id, nic=nic or "", on_event=on_event)
        if on_event is not None and left:
            on_event(left)  # what the driver does not put back with the value (r8169's pause)
        mark(history, session, stored.id, "reverted")
        reverted.append(stored.id)
    return reverted


async def find_leftover(session: Session) -> LeftoverSession | None:
    """The newest session on the Pi that was not reverted (armed, kept, cut short or broken).
    `orphaned` on it: waiting for a guard that is not running (revert it)."""
    for stored in await list_sessions(session):
        if stored.active:
            return stored.as_leftover()
    return None


async def revert_orphaned(session: Session, *, history: History | None = None) -> list[str]:
    """Revert every session cut short (armed or prepared, its guard not running), newest
    first; the ids reverted. Sessions on top of one are reverted with it."""
    sessions = [s for s in await list_sessions(session) if s.active]
    last = max((i for i, s in enumerate(sessions) if s.as_leftover().orphaned), default=-1)
    reverted = []
    for stored in sessions[: last + 1]:
        await run_revert(session, stored.id)
        mark(history, session, stored.id, "reverted")
        reverted.append(stored.id)
    return reverted


async def status(session: Session, *, history: History | None = None) -> list[LeftoverSession]:
    """Every session the Pi keeps for this network namespace, newest first, with the values
    of the newest ones read back from the Pi right now (`live`): what is really in force.
    With `history`, the stored states follow the Pi's (a guard that ran out reverted without
    sbctune)."""
    stored = await list_sessions(session)
    for one in stored:
        mark(history, session, one.id, one.state)
    found = [s.as_leftover() for s in stored]
    wanted = [(s, f) for s, f in zip(stored, found, strict=True) if s.record][:READ_BACK_SESSIONS]
    changes = [c for s, _f in wanted if s.record for c in s.record.touched()]
    live = await read_back(session, changes)
    for stored_one, leftover in wanted:
        count = len(stored_one.record.touched()) if stored_one.record else 0
        leftover.live, live = live[:count], live[count:]
    return found


def busy_error(holder: LeftoverSession | None, holder_id: str) -> SessionBusy:
    """The message for an apply refused because `holder` is the Pi's session in force."""
    if holder is None:
        return SessionBusy(
            f"Another tuning session ({holder_id or 'unknown'}) is being applied to this Pi.",
            "Wait for it to finish, then see `sbctune tune status HOST`.",
        )
    if holder.problem:
        return SessionBusy(
            f"Tuning session {holder.id} on the Pi is {holder.state}: one session at a time. "
            + holder.problem,
            "`sbctune tune revert HOST` runs its own revert.sh on the Pi.",
        )
    if holder.orphaned and holder.state == "prepared":
        return SessionBusy(
            f"Tuning session {holder.id} on the Pi is being set up by another sbctune, or was "
            "cut short before its auto-revert guard was armed (nothing of it was applied).",
            "If no other sbctune is tuning this Pi, clear it with `sbctune tune revert HOST`, "
            "then apply again.",
        )
    if holder.orphaned:
        return SessionBusy(
            f"Tuning session {holder.id} on the Pi was cut short: it is armed but its "
            "auto-revert guard is not running, so it will not revert by itself.",
            "Put its values back with `sbctune tune revert HOST`, then apply again.",
        )
    if holder.state == "prepared":
        return SessionBusy(
            f"Tuning session {holder.id} is being applied to this Pi by another sbctune right "
            "now: one session at a time.",
            "Wait for it, then see `sbctune tune status HOST`: confirm it (`sbctune tune "
            "confirm HOST`) or revert it (`sbctune tune revert HOST`).",
        )
    when = ""
    if holder.guard_deadline:
        when = f" (its guard reverts it at {time.strftime('%H:%M:%S', time.localtime(holder.guard_deadline))})"  # noqa: E501
    return SessionBusy(
        f"Tuning session {holder.id} on the Pi is {holder.state} and waiting for "
        f"confirmation{when}: one session at a time.",
        "Confirm it (`sbctune tune confirm HOST`) or revert it (`sbctune tune revert HOST`) first.",
    )
