"""The guided path's "Next" step (no Qt: plain rules). The one-click flow's time left is
sbctune.workflow.estimate's.

Each step of the path ends with one clear "Next: ..." action; which one depends on what has
been done so far (a Pi connected, inspected, a baseline, tuning applied, a measurement after).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Progress:
    """What the path has, as far as "Next" cares."""

    connected: bool
    inspected: bool
    baseline: bool
    tuned: bool  # tuning applied (guarded or kept) in this session
    after: bool


@dataclass(frozen=True)
class NextAction:
    page: str  # the page key to go to
    text: str  # the button's words
    focus: bool = True  # the natural way on: Enter takes it (not so a way round a step)


def next_action(page: str, done: Progress) -> NextAction | None:
    """The "Next" of `page`, once its step has done its work; None while it has not (or at
    the end of the path)."""
    if page == "connect" and done.connected:
        return NextAction("inspect", "Next: Inspect the Pi")
    if page == "inspect" and done.inspected:
        return NextAction("baseline", "Next: Measure a baseline")
    if page == "baseline" and done.baseline:
        return NextAction("tune", "Next: Tune")
    if page == "tune" and done.tuned:
        return NextAction("again", "Next: Measure again")
    if page == "tune" and done.baseline:
        return NextAction("results", "Next: Results, without tuning", focus=False)
    if page == "again" and done.after:
        return NextAction("results", "Next: Results")
    return None
