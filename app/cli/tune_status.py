"""`sbctune tune status`, and a session left on the Pi, in words: each session's state, its
tweaks' outcomes and whether their values are still in force (read back from the Pi)."""

from __future__ import annotations

import json
import time
from typing import Any

from sbctune.cli.fit import fit
from sbctune.cli.tune_plan_text import status_line
from sbctune.tuning import LeftoverSession
from sbctune.wording import counted, session_words
from sbctune.workflow.leftover import leftover_notice

# A tweak's outcome as one mark (`tune apply`, `tune status`).
MARK = {
    "applied": "✔",
    "already": "=",
    "not_needed": "–",  # nothing was due: neither done nor refused
    "not_possible": "✗",
    "failed": "!",
    "reverted": "↺",
    "planned": "·",
}
# What the values read back from the Pi say (`tune status`).
_LIVE = {
    "in_force": "in force",
    "original": "not in force (the original values)",
    "other": "changed since (neither the session's nor the original values)",
    "unknown": "could not be read back",
}


def leftover_text(leftover: LeftoverSession) -> str:
    notice = leftover_notice(leftover)
    hint = (
        "“sbctune tune confirm” keeps it, “sbctune tune revert” puts it back."
        if notice.can_keep
        else "“sbctune tune revert” puts its values back."
    )
    return f"{'Warning' if notice.urgent else 'Note'}: {notice.headline} {notice.detail} {hint}"


def status_json(s: LeftoverSession) -> dict[str, Any]:
    return {
        "id": s.id, "state": s.state, "started_at": s.started_at, "nic": s.nic,
        "persist": s.persist, "guard_deadline": s.guard_deadline,
        "guard_running": s.guard_running, "orphaned": s.orphaned, "reverted_by": s.reverted_by,
        "problem": s.problem, "in_force": s.live_states().count("in_force"),
        "outcomes": [{**o.to_json(), "live": s.live_states(o.tweak_id)} for o in s.outcomes],
    }  # fmt: skip


def state_text(s: LeftoverSession) -> str:
    if s.orphaned:
        return f"{s.state}, CUT SHORT: its guard is not running (revert it)"
    if s.state == "armed" and s.guard_deadline:
        at = time.strftime("%H:%M:%S", time.localtime(s.guard_deadline))
        return f"armed (reverts by itself at {at})"
    if s.state == "reverted" and s.reverted_by:
        return "reverted by its guard" if s.reverted_by == "guard" else "reverted"
    return s.state


def live_text(states: list[str]) -> str:
    if not states:
        return ""
    if len(set(states)) == 1:
        return _LIVE.get(states[0], states[0])
    return f"{states.count('in_force')} of {counted(len(states), 'value')} in force"


def print_status(sessions: list[LeftoverSession], as_json: bool) -> int:
    if as_json:
        print(json.dumps([status_json(s) for s in sessions], indent=2))
        return 0
    if not sessions:
        print("No tuning sessions on this Pi.")
        return 0
    for s in sessions:
        # by when it was applied, as everywhere else; the id is what --session takes
        persist = "kept across reboots" if s.persist else "not kept across reboots"
        lines = [f"{session_words(s.id)} (session {s.id}): {state_text(s)}; NIC "
                 f"{s.nic or 'not named'}; {persist}"]  # fmt: skip
        if s.problem:
            lines.append(f"    {s.problem}")
        for o in s.outcomes:
            live = live_text(list(s.live_states(o.tweak_id)))
            what = status_line(o.status, o.detail, o.tweak_id, MARK)
            lines.append(f"    {what}" + (f"; on the Pi now: {live}" if live else ""))
        # an 80-column terminal broke each outcome mid-word (walk s23: lines of 120 columns)
        print(fit(lines))
    return 0


def nothing_to_revert_text(sessions: list[LeftoverSession]) -> str:
    """`tune revert` with nothing left to put back, and why where the Pi's latest session says
    (walk 26: a user reverting a minute after applying read only "There was nothing to revert."
    while their tuning had been put back by its guard, unconfirmed)."""
    latest = max(sessions, key=lambda s: s.started_at, default=None)
    if latest is not None and latest.state == "reverted":
        by = "its guard" if latest.reverted_by == "guard" else "an earlier revert"
        why = " (it was not kept in time)" if latest.reverted_by == "guard" else ""
        return (
            f"There was nothing to revert: {by} already put back {session_words(latest.id)}{why}."
        )
    return "There was nothing to revert."
