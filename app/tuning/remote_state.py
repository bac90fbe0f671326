"""Sessions as the Pi keeps them under /var/lib/sbctune/tuning: list and read them.

Listing needs no sudo (the folder is world-readable; it holds knob values, no secrets), so a
leftover session is found on every connect without a password prompt. Sessions belong to the
network namespace they were made in (a container or the virtual Pi lab tunes its own knobs).
The listing also says whether each session's guard is running: a session "armed" (or
"prepared") without one was cut short and needs a revert.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sbctune.limits import MAX_OUTPUT_BYTES, parse_json
from sbctune.remote import batch
from sbctune.remote.script_time import COMMAND_SECONDS, script_seconds
from sbctune.textsafe import visible
from sbctune.tuning.errors import SessionFormatError
from sbctune.tuning.model import LeftoverSession
from sbctune.tuning.record import SessionRecord, read_record
from sbctune.tuning.scripts import LIST, SESSION_ID, STATE_ROOT

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

ACTIVE_STATES = ("prepared", "armed", "confirmed", "reverting", "revert_failed")
_FIELDS = 6  # folder, state, session.json, armed_at, guard running, reverted_by


@dataclass
class StoredSession:
    id: str
    state: str
    record: SessionRecord | None  # None: unreadable (see `problem`)
    armed_at: int | None
    guard_running: bool | None = None
    reverted_by: str = ""
    problem: str = ""
    raw: dict[str, Any] = field(default_factory=dict)
    clock_offset: float | None = None
    """The Pi's clock minus this computer's, when listed (None: the Pi's clock is unknown)."""
    held_seconds: int | None = None
    """The seconds the last re-arm set its guard to (a measurement holds it longer than the
    session's guard time); None: the session's own guard time."""

    @property
    def netns(self) -> str:
        return self.record.netns if self.record else str(self.raw.get("netns") or "")

    @property
    def active(self) -> bool:
        return self.state in ACTIVE_STATES

    @property
    def data(self) -> dict[str, Any]:
        """The record as JSON (as the history keeps it)."""
        return self.record.to_json() if self.record else dict(self.raw)

    def readable(self) -> SessionRecord:
        """The record, or the clear error saying why it cannot be read."""
        if self.record is None:
            raise SessionFormatError(self.problem or f"Session {self.id} cannot be read.",
                                     f"Revert it on the Pi: `sudo sh {STATE_ROOT}/{self.id}/"
                                     "revert.sh`.")  # fmt: skip
        return self.record

    def as_leftover(self) -> LeftoverSession:
        record = self.record
        seconds = self.held_seconds or (record.guard_seconds if record else None)
        deadline = None
        if self.armed_at is not None and seconds is not None and self.clock_offset is not None:
            # On this computer's clock: the seconds left on the Pi's, from now.
            deadline = float(self.armed_at + seconds) - self.clock_offset
        return LeftoverSession(
            id=self.id,
            state=self.state,
            started_at=record.created if record else "",
            nic=record.nic if record else None,
            persist=record.persist if record else False,
            outcomes=list(record.tweaks) if record else [],
            guard_deadline=deadline,
            netns=self.netns,
            guard_running=self.guard_running,
            reverted_by=self.reverted_by,
            problem=self.problem,
        )


def _stored(
    folder: str, state: str, text: str, armed: str, guard: str, by: str
) -> StoredSession | None:
    session_id = folder.rstrip("/").rsplit("/", 1)[-1]
    if not SESSION_ID.match(session_id):
        return None
    record, problem, loaded = None, "", None
    try:
        loaded = parse_json(text, "its session.json", max_bytes=MAX_OUTPUT_BYTES)
    except ValueError as exc:  # malformed, or nested 200 000 deep (json.loads: RecursionError)
        problem = f"Session {session_id} cannot be read: {visible(str(exc))[:200]}."
    if not problem and not (isinstance(loaded, dict) and loaded.get("id") == session_id):
        problem = f"Session {session_id} cannot be read: its session.json is not its record."
    if problem:  # shown as broken, never left out: it may hold values in force
        loaded = None
    else:
        try:
            record = read_record(loaded)
        except SessionFormatError as exc:
            problem = f"{exc.message} {exc.hint}".strip()
    # `cat armed_at`, a space, `cat guard.seconds`: either file may be missing, so the two are
    # told apart by that space, not by counting words.
    at_text, _, held_text = (t.strip() for t in armed.partition(" "))
    armed_at = int(at_text) if re.fullmatch(r"[0-9]{1,12}", at_text) else None
    held = int(held_text) if re.fullmatch(r"[0-9]{1,7}", held_text) else None
    running = {"1": True, "0": False}.get(guard.strip())
    reverted_by = by.strip() if by.strip() in ("guard", "manual") else ""
    raw = loaded if isinstance(loaded, dict) else {}
    return StoredSession(session_id, state.strip()[:40] or "unknown", record, armed_at,
                         running, reverted_by, problem, raw, held_seconds=held)  # fmt: skip


def parse_listing(data: bytes, pc_now: float | None = None) -> tuple[str, list[StoredSession]]:
    """The output of the listing script: (this netns, sessions newest first). Never raises.
    `pc_now`: this computer's clock when the listing was read (default: now)."""
    parts = data.decode("utf-8", errors="replace").split("\0")
    netns = parts[0].strip() if parts else ""
    pi_now = parts[1].strip() if len(parts) > 1 else ""
    offset = None
    if re.fullmatch(r"[0-9]{1,12}", pi_now):
        offset = int(pi_now) - (time.time() if pc_now is None else pc_now)
    sessions = []
    for i in range(2, len(parts) - _FIELDS + 1, _FIELDS):
        stored = _stored(*parts[i : i + _FIELDS])
        if stored is not None:
            stored.clock_offset = offset
            sessions.append(stored)
    sessions.sort(key=lambda s: s.id, reverse=True)  # ids start with their UTC time
    return netns, sessions


async def list_sessions(session: Session, *, all_namespaces: bool = False) -> list[StoredSession]:
    """Sessions kept on the Pi for this network namespace, newest first."""
    steps = [batch.Step(("sh", "-c", LIST, "sh", STATE_ROOT), "list")]
    results = await session.run_script(steps, timeout=script_seconds(steps),
                                       what="the list of tuning sessions")  # fmt: skip
    netns, sessions = parse_listing(results[0].stdout)
    if all_namespaces:
        return sessions
    # A session whose record cannot be read has no known namespace: shown, not hidden.
    return [s for s in sessions if s.netns in (netns, "")]


async def current_netns(session: Session) -> str:
    result = await session.run(["readlink", "/proc/self/ns/net"], timeout=COMMAND_SECONDS)
    return result.stdout.strip()
