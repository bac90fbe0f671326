"""Sessions as the Pi keeps them under /var/lib/sbctune/tuning: list, read, write files.

Listing needs no sudo (the folder is world-readable; it holds knob values, no secrets), so a
leftover session is found on every connect without a password prompt. Sessions belong to the
network namespace they were made in (a container or the virtual Pi lab tunes its own knobs).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sbctune.remote import Session, batch
from sbctune.tuning.model import LeftoverSession, TweakOutcome
from sbctune.tuning.scripts import SESSION_ID, STATE_ROOT

_LIST = (
    'readlink /proc/self/ns/net; printf "\\0"; '
    'for d in "$1"/*/; do [ -f "$d/session.json" ] || continue; '
    'printf "%s\\0" "$d"; cat "$d/state" 2>/dev/null; printf "\\0"; '
    'cat "$d/session.json" 2>/dev/null; printf "\\0"; '
    'cat "$d/armed_at" 2>/dev/null; printf "\\0"; done'
)
ACTIVE_STATES = ("prepared", "armed", "confirmed", "reverting", "revert_failed")


@dataclass
class StoredSession:
    id: str
    state: str
    data: dict[str, Any]
    armed_at: int | None

    @property
    def netns(self) -> str:
        return str(self.data.get("netns") or "")

    @property
    def active(self) -> bool:
        return self.state in ACTIVE_STATES

    def as_leftover(self) -> LeftoverSession:
        outcomes = []
        for entry in self.data.get("tweaks") or []:
            try:
                outcomes.append(TweakOutcome.from_json(entry))
            except (KeyError, ValueError, TypeError):
                continue
        seconds = self.data.get("guard_seconds")
        deadline = (
            float(self.armed_at + int(seconds))
            if self.armed_at is not None and isinstance(seconds, int)
            else None
        )
        return LeftoverSession(
            id=self.id,
            state=self.state,
            started_at=str(self.data.get("created") or ""),
            nic=self.data.get("nic") if isinstance(self.data.get("nic"), str) else None,
            persist=bool(self.data.get("persist")),
            outcomes=outcomes,
            guard_deadline=deadline,
            netns=self.netns,
        )


def parse_listing(data: bytes) -> tuple[str, list[StoredSession]]:
    """The output of the listing script: (this netns, sessions newest first). Never raises."""
    parts = data.decode("utf-8", errors="replace").split("\0")
    netns = parts[0].strip() if parts else ""
    sessions = []
    for i in range(1, len(parts) - 3, 4):
        folder, state, text, armed = parts[i : i + 4]
        session_id = folder.rstrip("/").rsplit("/", 1)[-1]
        if not SESSION_ID.match(session_id):
            continue
        try:
            loaded = json.loads(text)
        except ValueError:
            loaded = None
        if not isinstance(loaded, dict) or loaded.get("id") != session_id:
            continue
        armed_at = int(armed) if re.fullmatch(r"[0-9]{1,12}", armed.strip()) else None
        sessions.append(StoredSession(session_id, state.strip() or "unknown", loaded, armed_at))
    sessions.sort(key=lambda s: s.id, reverse=True)  # ids start with their UTC time
    return netns, sessions


async def list_sessions(session: Session, *, all_namespaces: bool = False) -> list[StoredSession]:
    """Sessions kept on the Pi for this network namespace, newest first."""
    steps = [batch.Step(("sh", "-c", _LIST, "sh", STATE_ROOT), "list")]
    results = await session.run_script(steps, timeout=30)
    netns, sessions = parse_listing(results[0].stdout)
    if all_namespaces:
        return sessions
    return [s for s in sessions if s.netns == netns]


async def current_netns(session: Session) -> str:
    result = await session.run(["readlink", "/proc/self/ns/net"], timeout=15)
    return result.stdout.strip()
