"""What the Tune page shows of the tuning, worked out from the workflow state alone (the session
as the tuning calls read it back from the Pi, its state, a measurement holding its guard, the
one-click flow running), so nothing on the page is left over from an earlier phase.

Walk 14 found three such leftovers: during the one-click flow the page showed an old "Reverted"
box and an enabled "Continue to Inspect" while three tweaks were on trial; after the guard ran
out it still listed every tweak as "applied"; after Keep it offered Apply again for the same
tweaks. Qt-free: the page only puts these words and states on its widgets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.workflow.rules import kept_tweaks
from sbctune.workflow.state import WorkflowState
from sbctune.workflow.tuning_words import outcome_lines

APPLIED_TEXT = (
    "Applied. Check that the Pi still answers, then keep the settings; otherwise they are "
    "reverted automatically when the countdown ends."
)
HELD_TIP = "A measurement is running; it holds the guard until it ends."
HELD_TEXT = (
    "Applied, and a measurement is running with these settings: it holds the guard until it "
    "ends. Keep or revert them then."
)
FLOW_GUARDED_TEXT = (
    "On trial under the guard while Tune & Measure measures them: it keeps only what helps "
    "and reverts the rest by itself."
)
FLOW_TIP = "Tune & Measure is running: it keeps or reverts these settings itself."
KEPT_TEXT = "Kept. The guard is off: these settings stay until the Pi restarts."
KEPT_PERSIST_TEXT = "Kept. The guard is off: these settings stay, also after a restart."
REVERTED_TEXT = "Reverted: the settings are no longer in force; the Pi is as it was before."
UNTIL_THEN = "Until then:"
REVERTED_AGAIN_TIP = "The settings were reverted: apply tweaks first, then measure them again."
IN_FORCE_TIP = (
    "The ticked tweaks are in force already (kept). Tick others to apply them, or revert first."
)
# The mark on a tweak's card, by the state of the session it is in force in.
MARKS = {"guarded": "on trial", "confirmed": "in force"}


@dataclass(frozen=True)
class Button:
    enabled: bool
    tip: str = ""


@dataclass(frozen=True)
class TuneView:
    """The guard card (hidden when no session of this window's is known) and the tweak marks."""

    shown: bool = False
    words: str = ""  # what the session is now
    outcomes: str = ""  # each tweak as the Pi answered ("Until then:" first once reverted)
    countdown: bool = False  # the guard is armed: its seconds show
    keep: Button = Button(False)
    revert: Button = Button(False)
    again: Button = Button(False)
    marks: dict[str, str] = field(default_factory=dict)  # tweak id -> "on trial" / "in force"
    flow: bool = False  # the one-click flow runs: nothing on the page starts another action


def tune_view(model: WorkflowState) -> TuneView:
    applied, state, flow = model.tuning, model.tuning_state, model.flow_running
    if applied is None or state is None:
        return TuneView(flow=flow)
    lines = outcome_lines(applied.outcomes)
    busy_tip = FLOW_TIP if flow else ""
    if state == "reverted":
        outcomes = "\n".join([UNTIL_THEN, *lines]) if lines else ""
        return TuneView(True, REVERTED_TEXT, outcomes, keep=Button(False),
                        revert=Button(False), again=Button(False, busy_tip or REVERTED_AGAIN_TIP),
                        flow=flow)  # fmt: skip
    marks = dict.fromkeys(kept_tweaks(applied), MARKS[state])
    outcomes = "\n".join(lines)
    if state == "confirmed":
        words = KEPT_PERSIST_TEXT if applied.persist else KEPT_TEXT
        return TuneView(True, words, outcomes, keep=Button(False),
                        revert=Button(not flow, busy_tip),
                        again=Button(not flow, busy_tip), marks=marks,
                        flow=flow)  # fmt: skip
    held = model.guard_held
    if flow:
        words, tip = FLOW_GUARDED_TEXT, FLOW_TIP
    else:
        words, tip = (HELD_TEXT, HELD_TIP) if held else (APPLIED_TEXT, "")
    can = not flow and not held
    return TuneView(True, words, outcomes, countdown=True, keep=Button(can, tip),
                    revert=Button(can, tip), again=Button(not flow, busy_tip),
                    marks=marks, flow=flow)  # fmt: skip


def apply_in_force(model: WorkflowState, ticked: list[str]) -> str | None:
    """Why Apply is not offered for these ticks: each of them is kept in force already."""
    applied = model.tuning
    if applied is None or model.tuning_state != "confirmed" or not ticked:
        return None
    return IN_FORCE_TIP if set(ticked) <= set(kept_tweaks(applied)) else None
