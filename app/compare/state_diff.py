"""What changed on the Pi between two runs: their stored settings (RunRecord.pi_state, read by
sbctune.workflow.pi_state) and the tweaks in force, key by key."""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.history.records import RunRecord
from sbctune.tuning.setting_names import setting_label, setting_value
from sbctune.tuning.words import session_words, tweak_title

MAX_LINES = 60


@dataclass(frozen=True)
class StateChange:
    key: str  # "offload/generic-receive-offload", "governor/policy0", "tweaks", ...
    before: str | None  # None: not read (or absent) in the first run
    after: str | None


def _tweaks(run: RunRecord) -> str:
    state = run.tuning_state or {}
    tweaks = state.get("tweaks") if isinstance(state, dict) else None
    names = sorted(tweak_title(str(t)) for t in tweaks) if isinstance(tweaks, dict | list) else []
    session = state.get("session") if isinstance(state, dict) else None
    text = ", ".join(names) or "none"
    return f"{text} ({session_words(session)})" if session and names else text


def state_changes(first: RunRecord, second: RunRecord) -> list[StateChange]:
    """Every setting that differs; empty when both runs kept no state (runs before v5)."""
    changes = []
    if _tweaks(first) != _tweaks(second):
        changes.append(StateChange("tweaks in force", _tweaks(first), _tweaks(second)))
    a, b = first.pi_state or {}, second.pi_state or {}
    if not a or not b:
        return changes
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            changes.append(StateChange(key, a.get(key), b.get(key)))
    return changes


def _line(change: StateChange) -> str:
    """ "Receive steering for queue rx-0 (rps/rx-0): off → CPUs 0–3": a CPU mask in words."""
    before = setting_value(change.key, change.before)
    after = setting_value(change.key, change.after)
    return (
        f"{setting_label(change.key)}: {before if before is not None else '—'} → "
        f"{after if after is not None else '—'}"
    )


def change_lines(first: RunRecord, second: RunRecord) -> list[str]:
    """`CPU frequency governor of policy0 (governor/policy0): ondemand → performance`: the
    setting's plain name, its key as a detail; at most MAX_LINES of them."""
    if not first.pi_state or not second.pi_state:
        missing = [r for r in (first, second) if not r.pi_state]
        # NICs measured together (`measure --all-nics`) keep each NIC's settings since walk
        # s23; older such runs, or a NIC whose settings could not be read, kept only the tuning
        # read back: "measured before sbctune kept them" was untrue of those (walk 22)
        together = [f"run {r.id}" for r in missing if r.aggregate_id]
        alone = [f"run {r.id}" for r in missing if not r.aggregate_id]
        reasons = []
        if together:
            reasons.append(f"{' and '.join(together)}: measured with other NICs; the NIC's "
                           "settings were not read back, only the tuning in force")  # fmt: skip
        if alone:
            reasons.append(f"{' and '.join(alone)}: measured before sbctune kept them")
        note = f"(no settings stored with {'; '.join(reasons)})"
        head = [_line(c) for c in state_changes(first, second)]
        return [*head, note]
    lines = [_line(c) for c in state_changes(first, second)]
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES], f"… and {len(lines) - MAX_LINES} more"]
    return lines or ["nothing: the same settings in both runs"]
