"""The tuning's outcome in words, for the Tune page, Results and the CLI alike: each tweak as
the Pi answered (applied, already in force, not possible with the kernel's words, failed)."""

from __future__ import annotations

from collections.abc import Iterable

from sbctune.compare.attribution import Contribution, drift_words
from sbctune.compare.waterfall import waterfall
from sbctune.history.run_tuning import CHANGED, change_text, changed_during_run, tweaks_in_force
from sbctune.tuning import TweakOutcome
from sbctune.tuning.setting_names import target_label
from sbctune.tuning.words import (
    NOT_NEEDED_HERE,
    NOT_POSSIBLE_HERE,
    detail_words,
    held_for_link,
    held_note,
    left_out_words,
    plan_reason,
    status_words,
    tweak_title,
)

# The pages reach the core through the workflow: the run-tuning words are theirs too.
__all__ = [
    "CHANGED", "NOT_NEEDED_HERE", "NOT_POSSIBLE_HERE", "change_text", "changed_during_run",
    "contribution_lines", "drift_words", "held_note", "left_out_words", "measured_row_text",
    "outcome_line",
    "outcome_lines", "plan_reason",
    "setting_words", "status_words", "tweak_title", "tweaks_in_force", "waterfall_svg",
]  # fmt: skip


def outcome_line(outcome: TweakOutcome) -> str:
    if held_for_link(outcome.status, outcome.detail):  # not refused: the user did not agree
        return (
            f"{tweak_title(outcome.tweak_id)}: held back — it would briefly drop the network "
            "link this computer reaches the Pi through, so it is applied only with your consent"
        )
    words = status_words(outcome.status)
    detail = detail_words(outcome.detail)
    return f"{tweak_title(outcome.tweak_id)}: {words}" + (f" — {detail}" if detail else "")


def outcome_lines(outcomes: Iterable[TweakOutcome]) -> list[str]:
    return [outcome_line(o) for o in outcomes]


def contribution_lines(contributions: Iterable[Contribution]) -> list[str]:
    """E.g. "CPU frequency governor: performance alone: Pi → PC half-duplex: faster by 80 to
    100 Mbit/s: kept"."""
    return [
        f"{tweak_title(c.tweak_id)} alone: {c.summary}: " + ("kept" if c.helps else "reverted")
        for c in contributions
    ]


def waterfall_svg(contributions: list[Contribution]) -> bytes:
    """The waterfall chart of what each tweak did alone, as SVG for the app's Results."""
    return waterfall(contributions).to_svg().encode()


def measured_row_text(what: str) -> str:
    """The Tune page's row of a tweak "Find what helps" measured alone here as no help: why it
    is not ticked (`what`: what it did alone, e.g. "no gain beyond noise")."""
    return (
        f"Measured on its own on this Pi: {what}; so it is not ticked. Tick it to apply it anyway."
    )


def setting_words(target: str) -> str:
    """A planned value's plain name with its key: an ethtool option ("eth0 -K tso": "TCP
    segmentation offload (eth0 -K tso)"), a file of /proc or /sys, a sysctl."""
    return target_label(target)
