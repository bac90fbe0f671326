"""`sbctune tune plan` as people read it: each tweak by its title, what it changes and why.

The exact commands are shown only when asked for (`--show-commands`). A tweak's id appears
only where the user types it: after `--tweak`, the option that chooses tweaks, so a reader
who wants just this one sees what to type.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Mapping

from sbctune.textsafe import visible
from sbctune.tuning.model import AppliedSession, PlannedTweak, TuningPlan
from sbctune.tuning.setting_names import target_label
from sbctune.tuning.words import (
    detail_words,
    left_out_words,
    plan_reason,
    status_words,
    tweak_title,
)
from sbctune.tuning.words import held_for_link as held_outcome

COMMAND_CHARS = 400  # a longer command is cut, with "…"
# A tweak held back because it restarts the link of the NIC the SSH session runs over: not
# "not possible" (it is, with the user's consent), and the flag that gives the consent.
ALLOW_FLAG = "--allow-link-restart"
HELD_STATE = "held back (restarts the link you are connected over)"
HELD_OUTCOME = (
    "held back (restarts the link you are connected over; run again with the flag "
    f"{ALLOW_FLAG} to allow it)"
)


class WholeNamesHelpFormatter(argparse.HelpFormatter):
    """Lines of help broken between words only, never at a hyphen: a tweak's name
    ("cpu-governor-performance") is typed as printed, so it stays on one line."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def plan_lines(the_plan: TuningPlan, *, show_commands: bool = False) -> list[str]:
    lines = [f"Tuning plan for {the_plan.nic or '(no NIC)'} (dry run: nothing is changed)"]
    for item in the_plan.items:
        lines += ["", *_item_lines(item, show_commands)]
    if the_plan.persist_preview:
        lines += ["", "Kept across reboots (--persist): these files are written, and removed "
                  "on revert"]  # fmt: skip
        for change in the_plan.persist_preview:
            if change.kind == "service":
                lines += ["", f"  {change.path} (enables {change.target.split(' ', 1)[-1]})"]
                continue
            lines += ["", f"  {change.path}:"]
            lines += [f"    | {line}" for line in (change.after or "").splitlines()]
    if not show_commands and any(item.commands for item in the_plan.items):
        lines += ["", "Add --show-commands to see the exact commands each tweak runs."]
    return lines


def _item_lines(item: PlannedTweak, show_commands: bool) -> list[str]:
    state = "will apply" if item.applicable else left_out_words(item)
    state = "already set" if item.already else state
    if item.needs_link_consent:
        state = HELD_STATE
    flags = [item.tweak.risk + " risk"]
    if item.tweak.needs_reboot:
        flags.append("needs a reboot")
    if item.tweak.advanced:
        flags.append("advanced")
    lines = [
        f"{item.tweak.title}: {state}  [{', '.join(flags)}]",
        f"  {plan_reason(item.reason, item.impossible)}",
    ]
    if item.why:  # for this board and NIC (tuning/why_words.py): never a Pi 4's test on a Pi 5
        lines.append(f"  Why: {item.why}")
    if item.needs_link_consent:
        lines.append(f"  (to allow it: run again with the flag {ALLOW_FLAG})")
    for change in item.changes:
        if change.needed and len(change.before or "") < 80:
            lines.append(
                f"  {change.target}: {value_words(change.before)} -> {value_words(change.after)}"
            )
    # the setting in words first, as the Tune page says it (ethtool's own syntax after it)
    lines += [f"  not possible: {target_label(t)}: {why}" for t, why in item.impossible]
    if show_commands:
        for command in item.commands:
            cut = command if len(command) < COMMAND_CHARS else command[:COMMAND_CHARS] + "…"
            lines.append(f"  $ sudo {cut}")
    if item.applicable and not item.already:
        lines.append(f"  (to choose it alone: --tweak {item.tweak.id})")
    return lines


def value_words(value: str | None) -> str:
    """A value as read or written, for people: a sysctl's tab-separated fields with spaces
    (the s13 walk saw Python's '4096\\t16384…'), control characters escaped, nothing quoted."""
    if value is None:
        return "(absent)"
    shown = " ".join(value.split())
    return visible(shown) if shown else "(empty)"


def held_for_link(the_plan: TuningPlan) -> list[str]:
    """The ids of the tweaks held back only for the SSH link (the user did not give the flag)."""
    return [item.tweak.id for item in the_plan.items if item.needs_link_consent]


def status_line(status: str, detail: str, tweak_id: str, marks: Mapping[str, str]) -> str:
    """`tune status`'s line of a recorded outcome: held back for the link, or its status."""
    if held_outcome(status, detail):
        return f"{marks.get('planned', '·')} {tweak_title(tweak_id)}: {HELD_OUTCOME}"
    return f"{marks.get(status, '?')} {tweak_title(tweak_id)}: {status_words(status)}"


def applied_lines(applied: AppliedSession, held: list[str], marks: Mapping[str, str]) -> list[str]:
    """`tune apply`'s outcome per tweak; one held back for the link says so, and how to allow
    it, instead of "not possible" with the driver's function names."""
    lines = []
    for outcome in applied.outcomes:
        title = tweak_title(outcome.tweak_id)
        if held_outcome(outcome.status, outcome.detail) or (
            outcome.tweak_id in held and outcome.status == "not_possible"
        ):
            lines.append(f"  {marks.get('planned', '·')} {title}: {HELD_OUTCOME}")
            continue
        what = f"{title}: {status_words(outcome.status)}"
        lines.append(f"  {marks.get(outcome.status, '?')} {what} — {detail_words(outcome.detail)}")
    return lines


__all__ = [
    "WholeNamesHelpFormatter", "applied_lines", "held_for_link", "plan_lines", "status_line",
]  # fmt: skip
