"""The tuning a stored run ran under, in words: one wording for History, Results, compare,
every export and advice. Runs stored since sbctune read the tuning back from the Pi
(`sbctune.workflow.tuning_read`) carry both readings; a run whose tuning changed while it
ran says so wherever it is shown."""

from __future__ import annotations

from typing import Any

from sbctune.history.records import RunRecord
from sbctune.wording import counted, session_words

CHANGED = "tuning changed during this run"
# A run measured with tweaks in force: never called a baseline (sbctune.workflow.baseline_check).
IN_FORCE = "with tuning in force"


def _state(run: RunRecord) -> dict[str, Any]:
    state = run.tuning_state
    return state if isinstance(state, dict) else {}


def changed_during_run(run: RunRecord) -> bool:
    return bool(_state(run).get("changed_during_run"))


def tweaks_in_force(run: RunRecord) -> list[str]:
    """The tweaks in force for the whole run (read back at both ends when it was read)."""
    tweaks = _state(run).get("tweaks")
    return [str(t) for t in tweaks] if isinstance(tweaks, list) else []


def held_for_link(run: RunRecord) -> list[str]:
    """Tweaks the flow held back while this run measured: they would have dropped the SSH
    NIC's link and the user had not agreed (sbctune.workflow.link_consent)."""
    held = _state(run).get("held_for_link")
    return [str(t)[:60] for t in held[:20]] if isinstance(held, list) else []


# The guard's state during the run, read back from the Pi ("armed, read back" was the raw word).
RUN_STATE_WORDS = {
    "armed": "on trial under the guard",
    "confirmed": "kept",
    "reverted": "put back",
    "reverting": "being put back",
}


def _reading(state: dict[str, Any], end: str) -> str:
    reading = state.get(end)
    if not isinstance(reading, dict):
        return "?"
    if not reading.get("readable", True):
        return "not readable"
    tweaks = reading.get("in_force")
    if not isinstance(tweaks, list) or not tweaks:
        return "untuned"
    raw = str(reading.get("state") or "?")[:40]
    return f"{counted(len(tweaks), 'tweak')} in force ({RUN_STATE_WORDS.get(raw, raw)})"


def change_text(run: RunRecord) -> str:
    """E.g. "tuning changed during this run (at start: 2 tweaks in force (on trial under the
    guard); at end: untuned; first seen at the end of test 3)", or "" when it did not."""
    state = _state(run)
    if not state.get("changed_during_run"):
        return ""
    at = state.get("changed_at_test")
    seen = f"; first seen at the end of test {at}" if isinstance(at, int) and at > 0 else ""
    return (f"{CHANGED} (at start: {_reading(state, 'start')}; at end: "
            f"{_reading(state, 'end')}{seen})")  # fmt: skip


def tuning_text(run: RunRecord) -> str:
    """One short line: "untuned", "tuning applied 2026-11-28 18:00 (2 tweaks, on trial under
    the guard)", or the change (the session by when it was applied, not by its id)."""
    state = _state(run)
    if not state:
        return "untuned"
    if state.get("changed_during_run"):
        return f"{session_words(state.get('session'))}: {CHANGED}"
    tweaks = tweaks_in_force(run)
    detail = [counted(len(tweaks), "tweak")] if tweaks else []
    if state.get("state"):  # the guard's state as the Pi said it, in words (s10 walk)
        raw = str(state["state"])[:40]
        detail.append(RUN_STATE_WORDS.get(raw, raw))
    return session_words(state.get("session")) + (f" ({', '.join(detail)})" if detail else "")


def usable_as_tuned(run: RunRecord) -> bool:
    """True when the run may stand as the "after" of a tuning: tweaks in force all along."""
    return bool(tweaks_in_force(run)) and not changed_during_run(run)
