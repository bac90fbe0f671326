"""What both front ends say about a tuning session found on the Pi at connect."""

from __future__ import annotations

from sbctune.cli.tune_status import leftover_text
from sbctune.tuning import LeftoverSession
from sbctune.tuning.model import TweakOutcome
from sbctune.workflow.leftover import leftover_notice
from tests.plain_words import jargon


def _session(state: str, *, guard_running: bool | None = True, **extra: object) -> LeftoverSession:
    outcomes = [TweakOutcome("cpu-governor-performance", "applied"), TweakOutcome("rps", "applied")]
    fields: dict[str, object] = {
        "id": "20261123-101500-ab12", "state": state, "started_at": "2026-11-23T10:15:00Z",
        "nic": "eth1", "persist": False, "outcomes": outcomes, "guard_running": guard_running,
    }  # fmt: skip
    fields.update(extra)
    return LeftoverSession(**fields)  # type: ignore[arg-type]


def test_a_session_cut_short_is_urgent_and_can_only_be_reverted() -> None:
    notice = leftover_notice(_session("prepared", guard_running=False))
    assert notice.headline == (
        "Tuning applied 2026-11-23 10:15 UTC (2 tweaks on eth1) was cut short before it finished."
    )
    assert "will NOT put the values back by itself" in notice.detail
    assert notice.urgent and not notice.can_keep
    text = leftover_text(_session("armed", guard_running=False))
    assert text.startswith("Warning: ") and text.endswith(
        "“sbctune tune revert” puts its values back."
    )


def test_a_guarded_session_says_when_it_reverts_and_can_be_kept() -> None:
    leftover = _session("armed", guard_deadline=1000.0)
    notice = leftover_notice(leftover, now=910.4)
    assert notice.headline.endswith("is waiting for confirmation.")
    assert (
        notice.detail == "Its guard puts the values back by itself in about 90 s unless it is kept."
    )
    assert notice.can_keep and not notice.urgent
    assert leftover_text(leftover).startswith("Note: ")
    assert "“sbctune tune confirm” keeps it" in leftover_text(leftover)


def test_kept_and_failed_sessions() -> None:
    kept = leftover_notice(_session("confirmed", persist=True))
    assert kept.headline == (
        "Tuning applied 2026-11-23 10:15 UTC (2 tweaks on eth1) was kept and is in force on "
        "this Pi."
    )
    assert kept.detail == (
        "Its values stay in force across reboots. Revert it to measure a fresh baseline and "
        "tune again."
    )
    assert not kept.urgent and not jargon(kept.headline + kept.detail)
    assert "20261123" not in kept.headline  # the session's id is the Pi's file name
    odd = leftover_notice(_session("confirmed", started_at="not a time"))
    assert odd.headline.startswith("Tuning applied earlier (2 tweaks on eth1)")
    failed = leftover_notice(_session("revert_failed"))
    assert failed.urgent and "could not be put back completely" in failed.headline


def test_text_from_the_pi_is_shown_escaped() -> None:
    notice = leftover_notice(_session("confirmed", nic="eth1\x1b[2J", outcomes=[]))
    assert "\x1b" not in notice.headline and "\\u001b[2J" in notice.headline
    assert "(tweaks on eth1" in notice.headline
