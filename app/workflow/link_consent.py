"""The user's consent to changes that briefly drop the network link (issue 21).

Some drivers close and reopen the interface for a change (macb, igb, igc, atlantic and stmmac
for their rings; most for Energy-Efficient Ethernet or flow control). On the NIC that carries
the SSH session such a tweak is held back by the planner (`PlannedTweak.needs_link_consent`)
until the user agrees; then it is planned with the option `allow_link_restart` and applied under
the guard and, where NetworkManager runs, its checkpoint. Both front ends word it from here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sbctune.inventory.model import Inventory
from sbctune.resources import resource_root
from sbctune.tuning import PlannedTweak
from sbctune.tuning import plan as plan_tweaks
from sbctune.tuning.words import held_note

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

__all__ = ["held_note"]  # the results' wording lives with the tweaks' words

OPTION = "allow_link_restart"  # the planner's option (CLI: --allow-link-restart)


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    text = resource_root().joinpath("tuning", "link_restart.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not data.get("sources"):
        raise ValueError("resources/tuning/link_restart.json: no source")
    return data


def link_down_seconds() -> int:
    """About how long the link is down (real captures, resources/tuning/link_restart.json)."""
    return int(_data()["about_seconds"])


CONSENT_LABEL = "Also apply changes that briefly drop the network link"


def consent_detail() -> str:
    return (
        f"about {link_down_seconds()} s; applied under the guard, which puts everything back "
        "if the Pi stops answering"
    )


def consent_text() -> str:
    """The words of the control that gives the consent."""
    return f"{CONSENT_LABEL} ({consent_detail()})"


def held_for_link(items: Iterable[PlannedTweak]) -> list[PlannedTweak]:
    """The tweaks held back only because they restart the link of the SSH session's NIC."""
    return [item for item in items if item.needs_link_consent]


def consented_link(items: Iterable[PlannedTweak]) -> list[PlannedTweak]:
    """With consent given: the tweaks that will drop the link."""
    return [item for item in items if item.applicable and item.restarts_link]


def plan_options(allow_link_restart: bool) -> dict[str, Any]:
    return {OPTION: True} if allow_link_restart else {}


def held_text(titles: Iterable[str]) -> str:
    """Before tuning (the Tune page's card, the one-click flow's question): what is held back
    and why, in plain words (a sentence with its subject: the walk of session 10 read "Held
    back, because they would ... through: NIC rings to the hardware maximum." as a riddle)."""
    names = list(titles)
    if len(names) == 1:
        return (
            f"Held back: {names[0]}. It would briefly drop the link this app reaches the Pi "
            "through."
        )
    return (
        f"Held back: {', '.join(names)}. They would briefly drop the link this app reaches the "
        "Pi through."
    )


def consent_effect(count: int = 2) -> str:
    """What agreeing to `count` held tweaks does, as a sentence (the one-click flow's question,
    the Tune page's card)."""
    applied = "it is applied" if count == 1 else "they are applied"
    return (
        f"If you agree, the link drops for about {link_down_seconds()} s while {applied}, "
        "under the guard, which puts everything back if the Pi stops answering."
    )


def held_row_text() -> str:
    """A held tweak's row on the Tune page: why it is not ticked, and how to allow it."""
    return (
        "Held back: it would briefly drop the network link this app reaches the Pi through. "
        f"Tick “{CONSENT_LABEL}” to allow it."
    )


def agreed_row_text() -> str:
    """The same row once the user agreed: planned, and what it does to the link."""
    return f"Planned with your consent: it drops the network link briefly ({consent_detail()})."


def dropping_text(titles: Iterable[str]) -> str:
    """With consent given: what will drop the link when it is applied."""
    return "These drop the link briefly when they are applied: " + ", ".join(titles) + "."


async def held_before_run(
    session: Session, inventory: Inventory, nic: str | None, tweak_ids: Iterable[str] | None = None
) -> list[PlannedTweak]:
    """Before the one-click flow or "Find what helps": the recommended tweaks (or `tweak_ids`)
    that its plan would hold back for the link, so the front end can ask first."""
    ids = tuple(tweak_ids) if tweak_ids is not None else None
    return held_for_link((await plan_tweaks(session, inventory, nic, ids)).items)
