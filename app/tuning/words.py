"""Tweaks and their outcomes in the words a user reads: the tweak's title, not its id; what
happened, not the status's code name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from sbctune.tuning.catalog import load_tweaks
from sbctune.tuning.model import HELD_FOR_LINK, PlannedTweak
from sbctune.wording import session_words

__all__ = [
    "NOT_NEEDED_HERE", "NOT_POSSIBLE_HERE", "detail_words", "held_for_link", "held_note",
    "left_out_words", "outcome_counts", "plan_reason", "session_words", "status_words",
    "tweak_title",
]  # fmt: skip

# A planned tweak the Pi cannot take (the driver, the kernel or the board): the Tune page's
# badge and `tune plan`'s line say it alike (walk 18: the page said "not applicable" where the
# command line, the tweaks' own why and the session records say "not possible").
NOT_POSSIBLE_HERE = "not possible here"
# A planned tweak the Pi could take but that is not needed on it (model.NotNeeded): meant only
# for NICs known to need it, or in force in another form already (walk18: flow control and
# igb's adaptive coalescing were badged "not possible here").
NOT_NEEDED_HERE = "not needed here"


def left_out_words(item: PlannedTweak) -> str:
    """A tweak the planner left out, in one word for both front ends: not needed, or not
    possible here."""
    return NOT_NEEDED_HERE if item.not_needed else NOT_POSSIBLE_HERE


def plan_reason(reason: str, impossible: Iterable[tuple[str, str]]) -> str:
    """A planned tweak's reason without the refused parts that both front ends list on their
    own lines after it (walk 18, a Pi 1's offloads row: "…; eth0 -K gso: requested on, but the
    kernel keeps it off; …" and then the same parts again under "Not possible here")."""
    for target, why in impossible:
        reason = reason.replace(f"; {target}: {why}", "")
    return reason


STATUS_WORDS = {
    "applied": "applied",
    "already": "already in force (nothing changed)",
    # Left out by the planner as not needed (NotNeeded): no change was due, nothing failed.
    "not_needed": "not needed here: nothing to change",
    "not_possible": "not possible on this Pi",
    "failed": "failed",
    "reverted": "put back",
    "planned": "not applied",
}


# A file of /proc or /sys and the kernel's answer ("/proc/irq/46/smp_affinity: Invalid
# argument"), and numbers as a Python list ("CPUs [0, 1]", older sessions): as sessions record
# them. The user reads the answer and the numbers. A path in brackets is a source, not a file
# that answered (walk 26: "one CPU core (processors in /proc/cpuinfo): there is nothing to
# spread the work to" read "(processors in the kernel answered “there is nothing ...”").
_KERNEL_FILE = re.compile(r"/(?:proc|sys)/[^\s:;()]+: ([^;)]+)")
_NUMBER_LIST = re.compile(r"\[(\d+(?:, \d+)*)\]")


def detail_words(detail: str) -> str:
    """A tweak's recorded detail in plain words."""
    text = _KERNEL_FILE.sub(lambda m: f"the kernel answered “{m.group(1).strip()}”", detail)
    return _NUMBER_LIST.sub(r"\1", text)


def held_for_link(status: str, detail: str) -> bool:
    """An outcome recorded for a tweak held back because it restarts the SSH session's link
    (the user did not agree): "not possible" in the record, held back in words."""
    return status == "not_possible" and HELD_FOR_LINK in detail


def status_words(status: str) -> str:
    return STATUS_WORDS.get(status, status.replace("_", " "))


# What a session did, counted by the outcome each tweak read back (the statuses the Results
# page's lines word one by one), in this order; a count of zero is not said.
_COUNT_WORDS = (
    ("applied", "changed"),
    ("already", "already in force"),
    ("not_needed", "not needed"),
    ("not_possible", "not possible"),
    ("held", "held back"),
    ("failed", "failed"),
    ("reverted", "put back"),
    ("planned", "not applied"),
)


def outcome_counts(outcomes: Iterable[tuple[str, str]]) -> str:
    """(status, detail) of each tweak in words: "2 changed, 4 already in force, 1 not
    possible"; "no tweaks" for none. A tweak held back for the SSH link counts as held back."""
    counts: dict[str, int] = {}
    for status, detail in outcomes:
        key = "held" if held_for_link(status, detail) else status
        counts[key] = counts.get(key, 0) + 1
    known = {k for k, _ in _COUNT_WORDS}
    said = [f"{counts[k]} {words}" for k, words in _COUNT_WORDS if counts.get(k)]
    other = sum(n for k, n in counts.items() if k not in known)
    if other:
        said.append(f"{other} with an outcome this sbctune does not know")
    return ", ".join(said) or "no tweaks"


@cache
def _titles() -> dict[str, str]:
    return {t.id: t.title for t in load_tweaks()}


def tweak_title(tweak_id: str) -> str:
    """The tweak's title; an id this sbctune does not know (from a newer one's session on the
    Pi) in words."""
    return _titles().get(tweak_id) or tweak_id.replace("-", " ").replace("_", " ")


def held_note(tweak_ids: list[str] | tuple[str, ...]) -> str:
    """Tweaks left out because they would drop the link of the NIC the SSH session runs over
    and the user did not agree (sbctune.workflow.link_consent): one wording for the flow's
    results, the app and every report."""
    titles = ", ".join(tweak_title(t) for t in tweak_ids)
    return (
        f"Held back, not applied: {titles}. They would briefly drop the network link this "
        "computer reaches the Pi through, so they are applied only with your consent."
    )
