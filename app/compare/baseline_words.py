"""A stored run in words for the tuning it ran under, as read back from the Pi: "with tuning
in force: …" and "this run is not a baseline". One wording for the desktop app (History,
Results, the Baseline page: `sbctune.workflow.baseline_check`), the command line and the
exports (walk 14, problem 2: a tuned run called a baseline)."""

from __future__ import annotations

from sbctune.history.records import RunRecord
from sbctune.history.run_tuning import CHANGED, IN_FORCE, changed_during_run, tweaks_in_force
from sbctune.tuning.words import tweak_title
from sbctune.wording import counted

MAX_NAMED = 6  # tweaks named in one line; more are counted


def tweak_names(tweaks: tuple[str, ...] | list[str]) -> str:
    titles = [tweak_title(t) for t in tweaks[:MAX_NAMED]]
    more = len(tweaks) - len(titles)
    return ", ".join(titles) + (f" and {more} more" if more > 0 else "")


def in_force_mark(run: RunRecord) -> str | None:
    """How a stored run is marked for the tuning it ran under, as read back from the Pi:
    "with tuning in force: CPU frequency governor: performance, ...", the change during the
    run, or None for an untuned run. One wording for History, Results and the Baseline page."""
    if changed_during_run(run):
        return CHANGED
    tweaks = tweaks_in_force(run)
    if not tweaks:
        return None
    return f"{IN_FORCE}: {tweak_names(tweaks)}"


def in_force_short(run: RunRecord) -> str | None:
    """`in_force_mark` short enough for a table row of a line or two: one tweak named, more
    counted (History's Plan column, whose tooltip lists them all: `in_force_titles`)."""
    if changed_during_run(run):
        return CHANGED
    tweaks = tweaks_in_force(run)
    if not tweaks:
        return None
    return f"{IN_FORCE}: " + (
        tweak_title(tweaks[0]) if len(tweaks) == 1 else counted(len(tweaks), "tweak")
    )


def in_force_titles(run: RunRecord) -> list[str]:
    """Every tweak the run was read back as running under, by its title."""
    return [tweak_title(t) for t in tweaks_in_force(run)]


def in_force_full(run: RunRecord) -> str | None:
    """`in_force_short`'s whole words, every tweak by its title (History's Plan tooltip)."""
    if changed_during_run(run):
        return CHANGED
    titles = in_force_titles(run)
    return f"{IN_FORCE}: {', '.join(titles)}" if titles else None


def not_a_baseline(run: RunRecord) -> str | None:
    """What the Baseline page says of a run the Pi read back as tuned (None: a baseline)."""
    if changed_during_run(run):
        return "The tuning changed during this run: it is not a baseline."
    tweaks = tweaks_in_force(run)
    if not tweaks:
        return None
    return f"Measured {IN_FORCE} ({tweak_names(tweaks)}): this run is not a baseline."


def is_fair_baseline(run: RunRecord) -> bool:
    """A run that may be called a baseline: no tuning in force, none changing, as read back."""
    return in_force_mark(run) is None


def first_run_warning(runs: list[RunRecord]) -> str | None:
    """For a comparison's first run (its "before") read back as tuned: that it is no baseline,
    so the changes against it do not show what the tuning did (None: a baseline, one run, or a
    run whose tuning changed while it ran, which has its own warning)."""
    if len(runs) < 2 or changed_during_run(runs[0]):
        return None
    words = not_a_baseline(runs[0])
    if words is None:
        return None
    return words.rstrip(".") + ", so the changes against it do not show what the tuning did."
