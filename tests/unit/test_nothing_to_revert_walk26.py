"""Walk 26: `tune revert` a few minutes after `tune apply` (unconfirmed) said only "There was
nothing to revert.", while the guard had put the tuning back by itself: a new user could not
tell whether their tuning was still on the Pi. It now says the guard put it back, and when it
had been applied."""

from __future__ import annotations

from sbctune.cli.tune_status import nothing_to_revert_text
from sbctune.tuning import LeftoverSession


def _session(sid: str, state: str, by: str = "") -> LeftoverSession:
    return LeftoverSession(sid, state, sid, "eth0", False, [], reverted_by=by)


def test_a_session_reverted_by_its_guard_is_said() -> None:
    sessions = [
        _session("20261201T013812Z-86080a", "reverted", "guard"),
        _session("20261130T101010Z-000001", "reverted", "manual"),
    ]
    assert nothing_to_revert_text(sessions) == (
        "There was nothing to revert: its guard already put back tuning applied 2026-12-01 "
        "01:38 (it was not kept in time)."
    )


def test_a_session_reverted_by_hand_and_none_at_all() -> None:
    text = nothing_to_revert_text([_session("20261201T013812Z-86080a", "reverted", "manual")])
    assert text == (
        "There was nothing to revert: an earlier revert already put back tuning applied "
        "2026-12-01 01:38."
    )
    assert nothing_to_revert_text([]) == "There was nothing to revert."
