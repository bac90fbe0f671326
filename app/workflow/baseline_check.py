"""Before a baseline: is any tuning in force on the Pi? A "baseline" measured with the tuning
in force is the tuned figure under the wrong name (walk 14, problem 2: 834.6 Mbit/s called a
baseline, the real one 738.8, then compared as "no change").

The answer comes from what the session knows as read back from the Pi: the tuning applied in
this session (on trial under the guard, kept, kept across reboots; a run's end reading turns
a session the Pi no longer keeps into "reverted"), and the session found on the Pi at connect
(the source of the reconnect warning, `sbctune.workflow.leftover`), kept or not. Two honest
choices follow: revert, read back, then measure the baseline; or measure as it is, the run
then labelled "with tuning in force" wherever it is shown (`in_force_mark`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sbctune.compare.baseline_words import (
    in_force_full,
    in_force_mark,
    in_force_short,
    in_force_titles,
    is_fair_baseline,
    not_a_baseline,
    tweak_names,
)
from sbctune.errors import UserError
from sbctune.history.records import RunRecord
from sbctune.history.run_tuning import IN_FORCE
from sbctune.workflow.rules import changed_tweaks

__all__ = [  # the words live in sbctune.compare.baseline_words, for the exports too
    "in_force_full", "in_force_mark", "in_force_short", "in_force_titles", "is_fair_baseline",
    "not_a_baseline", "tweak_names",
]  # fmt: skip

if TYPE_CHECKING:
    from sbctune.history import History
    from sbctune.remote.session import Session
    from sbctune.tuning import LeftoverSession
    from sbctune.workflow.state import WorkflowState
    from sbctune.workflow.tuning_read import TuningReading


@dataclass(frozen=True)
class TuningInForce:
    """The tuning the Pi runs with now, as the session read it back."""

    how: str  # "on trial under the guard", "kept", "kept across reboots", ...
    tweaks: tuple[str, ...]  # tweak ids in force ((): the session's record named none)

    def notice(self) -> str:
        """What the Baseline page says before Start (under its heading "Tuning is in force
        on the Pi")."""
        named = tweak_names(self.tweaks)
        what = f": {named}" if named else ""
        return (
            f"In force now{what}; {self.how}. A baseline is the speed before any change: "
            "measured now, it would be the tuned speed, not a baseline."
        )

    def to_json(self) -> dict[str, object]:
        return {"how": self.how, "tweaks": list(self.tweaks)}


def tuning_in_force(state: WorkflowState) -> TuningInForce | None:
    """None when nothing the session knows of is in force on the Pi."""
    applied = state.tuning
    if applied is not None and state.tuning_state in ("guarded", "confirmed"):
        if state.tuning_state == "guarded":
            how = "on trial under the guard, not yet kept"
        else:
            how = "kept across reboots" if applied.persist else "kept until the Pi restarts"
        return TuningInForce(how, tuple(changed_tweaks(applied)))
    leftover = state.info.tuning_leftover if state.info is not None else None
    return leftover_in_force(leftover if leftover is not None else state.kept_leftover)


def leftover_in_force(leftover: LeftoverSession | None) -> TuningInForce | None:
    """A session found on the Pi (the newest not put back, `sbctune.tuning.find_leftover`) as
    the tuning in force; None when there is none or it was put back."""
    if leftover is None or leftover.state == "reverted":
        return None
    # "already": so before the session, not its tuning (walk 15, problem 3)
    tweaks = tuple(o.tweak_id for o in leftover.outcomes if o.status == "applied")
    if leftover.state == "armed" and not leftover.orphaned:
        how = "left on the Pi earlier, on trial under its guard"
    elif leftover.state == "confirmed":
        how = "left on the Pi earlier and kept" + (
            " across reboots" if leftover.persist else " until the Pi restarts"
        )
    else:
        how = "left on the Pi earlier, not put back"
    return TuningInForce(how, tweaks)


async def read_in_force(session: Session) -> TuningInForce | None:
    """The tuning in force on the Pi now, read from the sessions the Pi keeps (one round
    trip): what a command that measures a baseline on a fresh connection asks first (the
    CLI's `measure` and `demo`), in the words the Baseline page uses."""
    from sbctune.tuning import find_leftover

    return leftover_in_force(await find_leftover(session))


async def revert_for_baseline(session: Session, history: History | None) -> TuningReading:
    """Revert every tuning session active on the Pi (newest first), then read the Pi back: the
    baseline is measured only once nothing is in force. Raises UserError when the read-back
    still finds tuning (or cannot read)."""
    from sbctune import tuning
    from sbctune.workflow.tuning_read import read_tuning

    await tuning.revert(session, None, history=history)
    reading = await read_tuning(session)
    if not reading.readable:
        raise UserError(
            "The tuning was put back, but the Pi could not be read back to confirm it.",
            "The baseline was not measured. Try again, or check the Pi on the Tune page.",
        )
    if reading.session is not None or reading.tuned:
        raise UserError(
            "The Pi still reports tuning in force after the revert.",
            "The baseline was not measured. Revert it on the Tune page, then try again.",
        )
    return reading


@dataclass(frozen=True)
class BeforeAfter:
    """How Results titles and labels its runs: a "before" only when it is a baseline."""

    title: str
    labels: list[str]
    note: str = ""  # why this is not a before-and-after ("": it is one)
    offer_baseline: bool = False  # offer to measure a baseline

    @property
    def first_colour(self) -> int:
        """An "after" without a "before" keeps the after's colour (walk 14, problem 9c)."""
        return 1 if self.labels and self.labels[0] == "After" else 0


NO_BASELINE = (
    "There is no baseline in this session, so these figures have nothing to compare with: "
    "they cannot show what the tuning did. Measure a baseline to see the difference."
)


GUI_HINT = "the Baseline page puts the tuning back first"


UNTUNED_AGAIN = "Again, nothing in force"
UNTUNED = "Nothing in force"


def untuned_again(baseline: RunRecord, after: RunRecord) -> BeforeAfter:
    """A "Measure again" run the Pi read back with nothing in force (walk 15, problem 1: it was
    shown as the "After" of a tuning comparison, "no change detected"): a second baseline."""
    note = (
        f"Nothing was in force on the Pi during run {after.id} either (as read back): it is a "
        "second baseline, not a measurement with the tuning, so the difference is only how much "
        "two runs vary. Tune, then measure again, to see what the tuning does."
    )
    return BeforeAfter("Two runs with nothing in force", ["Before", UNTUNED_AGAIN], note)


def before_after(
    baseline: RunRecord | None, after: RunRecord | None, hint: str = GUI_HINT
) -> BeforeAfter:
    """`hint`: how this front end measures a real baseline (the CLI names its flag)."""
    if baseline is None:
        # An untuned run is no "After" (walk 15, problem 1), even alone.
        alone = "After" if after is None or not is_fair_baseline(after) else UNTUNED
        return BeforeAfter("Nothing to compare with", [alone] if after else [], NO_BASELINE,
                           offer_baseline=True)  # fmt: skip
    mark = in_force_mark(baseline)
    if mark is None and after is not None and is_fair_baseline(after):
        return untuned_again(baseline, after)
    if mark is None:
        return BeforeAfter("Before and after", ["Before", "After"] if after else ["Before"])
    what = "Both runs had" if after is not None and in_force_mark(after) else "The first run had"
    note = (
        f"Run {baseline.id} was measured {mark}: it is not a baseline, so "
        + ("this comparison does not show what the tuning did" if after else "it shows the "
           "tuned speed, not the speed before any change")
        + f". Measure a baseline ({hint}) to see that."
    )  # fmt: skip
    labels = ["With tuning in force", "After"] if after else ["With tuning in force"]
    title = f"No baseline: {what.lower()} tuning in force" if after else "Measured " + IN_FORCE
    return BeforeAfter(title, labels, note, offer_baseline=True)
