"""The tuning session record: the Pi's session.json and the history's copy, one schema in code.

Schema 1 (JSON object):
  {"schema": 1, "id": str, "nic": str|null, "guard_seconds": int, "persist": bool,
   "tweaks": [{"id": tweak_id,
               "status": planned|applied|already|not_needed|not_possible|failed|reverted,
               "detail": str, "changes": [{"kind", "target", "before", "after"[, "path"]}]}],
   "persist_changes": [change, ...], "created": ISO 8601, "netns": str, "host": str,
   "options": {plan option: str|int|float|bool|null}}
`changes` of a tweak lists what the session changed (or will change, while "planned") and
reverts, in the order applied. `options` are the user's plan options (e.g. arm_freq,
boot_test); `boot-commit` re-plans a test-boot session's tweaks from them. Records written
before the "schema" key existed are schema 1. A record of a newer schema is refused with a
message that says to update sbctune (its revert.sh on the Pi still works by hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sbctune.tuning.errors import SessionFormatError
from sbctune.tuning.model import Change, TweakOutcome
from sbctune.tuning.scripts import SESSION_ID, STATE_ROOT

SCHEMA_VERSION = 1
Scalar = str | int | float | bool | None


@dataclass
class SessionRecord:
    id: str
    nic: str | None
    guard_seconds: int
    persist: bool
    created: str
    netns: str
    host: str
    tweaks: list[TweakOutcome] = field(default_factory=list)
    persist_changes: list[Change] = field(default_factory=list)
    options: dict[str, Scalar] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "id": self.id,
            "nic": self.nic,
            "guard_seconds": self.guard_seconds,
            "persist": self.persist,
            "tweaks": [o.to_json() for o in self.tweaks],
            "persist_changes": [c.to_json() for c in self.persist_changes],
            "created": self.created,
            "netns": self.netns,
            "host": self.host,
            "options": dict(self.options),
        }

    def applied_changes(self) -> list[Change]:
        """What the applied tweaks set, then the persistence files, in the order applied."""
        changes = [c for t in self.tweaks if t.status == "applied" for c in t.changes]
        return changes + list(self.persist_changes)

    def touched(self) -> list[Change]:
        """Every change the session made or was about to make, whatever came of it."""
        return [c for t in self.tweaks for c in t.changes] + list(self.persist_changes)


def public_options(options: Mapping[str, Any]) -> dict[str, Scalar]:
    """The plan options worth keeping with a session (the user's scalars, nothing internal)."""
    return {
        str(k): v
        for k, v in options.items()
        if not str(k).startswith("_") and isinstance(v, (str, int, float, bool, type(None)))
    }


def read_record(data: object) -> SessionRecord:
    """A session record from its JSON form; SessionFormatError if it is not one this sbctune
    can read (damaged, or written by a newer sbctune)."""
    if not isinstance(data, Mapping):
        raise _damaged("?", "it is not a JSON object")
    session_id = data.get("id")
    shown = session_id if isinstance(session_id, str) and SESSION_ID.match(session_id) else "?"
    version = data.get("schema", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _damaged(shown, f"its format number is {str(version)[:20]!r}")
    if version > SCHEMA_VERSION:
        where = f" on the Pi with `sudo sh {STATE_ROOT}/{shown}/revert.sh`" if shown != "?" else ""
        raise SessionFormatError(
            f"Tuning session {shown} was written by a newer sbctune (session format {version}; "
            f"this sbctune reads format {SCHEMA_VERSION} and older).",
            f"Update sbctune to manage this session, or revert it{where}.",
        )
    if shown == "?":
        raise _damaged(shown, "it has no valid session id")
    try:
        return _record_v1(data, shown)
    except (KeyError, ValueError, TypeError) as exc:
        raise _damaged(shown, str(exc)[:200]) from None


def _record_v1(data: Mapping[str, Any], session_id: str) -> SessionRecord:
    nic = data.get("nic")
    seconds = data.get("guard_seconds", 0)
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise ValueError("guard_seconds is not a number")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise ValueError("options is not an object")
    return SessionRecord(
        id=session_id,
        nic=nic if isinstance(nic, str) else None,
        guard_seconds=seconds,
        persist=bool(data.get("persist")),
        created=str(data.get("created") or ""),
        netns=str(data.get("netns") or ""),
        host=str(data.get("host") or ""),
        tweaks=[TweakOutcome.from_json(t) for t in _list(data, "tweaks")],
        persist_changes=[Change.from_json(c) for c in _list(data, "persist_changes")],
        options=public_options(options),
    )


def _list(data: Mapping[str, Any], key: str) -> Sequence[Mapping[str, Any]]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise ValueError(f"{key} is not a list of objects")
    return value


def _damaged(session_id: str, why: str) -> SessionFormatError:
    return SessionFormatError(
        f"Tuning session {session_id}'s record cannot be read: {why}.",
        "`sbctune tune status HOST` lists the sessions; its revert.sh on the Pi "
        f"({STATE_ROOT}/<id>/revert.sh) still puts its values back.",
    )
