"""Issue 21 on the command line: `sbctune demo` on the Pi 5 lab (macb on RP1, whose ring change
closes and reopens the interface). Without --allow-link-restart the demo says before the run
what it holds back and how to agree, leaves the rings alone, and its results and HTML report
name the tweak as held back; with it the demo says which tweaks will drop the link and the
flow applies the rings under the guard (the link bounces for real). The demo's own code runs
in-process, over a real SSH session to the lab, with one short trial per direction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.cli import demo_cmd
from sbctune.cli.main import build_parser
from sbctune.measure.plans import plan_named
from sbctune.tuning.words import held_note
from tests.lab_support import connect_to_lab, in_lab
from tests.plain_words import jargon

pytestmark = [pytest.mark.lab, pytest.mark.slow]

RINGS = "NIC rings to the hardware maximum"


def _carrier_changes(lab: Any) -> int:
    return int(in_lab(lab, "cat /sys/class/net/eth0/carrier_changes").strip())


async def test_demo_holds_the_rings_back_says_so_and_applies_them_with_the_flag(
    lab_factory: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    lab = lab_factory("pi5-macb")
    one_trial = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)
    monkeypatch.setattr(demo_cmd, "plan_named", lambda _name: one_trial)
    report = tmp_path / "report.html"
    parser = build_parser()
    bounces = _carrier_changes(lab)
    async with await connect_to_lab(lab, tmp_path) as session:
        args = parser.parse_args(["demo", "--report", str(report), "--force"])
        without = await demo_cmd._flow(session, args)
    out, err = capsys.readouterr()
    assert "nic-rings" in without.held_for_link
    assert not [o for o in without.tuning_outcomes if o.tweak_id == "nic-rings"]
    assert _carrier_changes(lab) == bounces, "the link never dropped without the flag"
    # Before the run: what is held back and why, then how to agree.
    before = err.split("==> Baseline measurement")[0]
    assert f"Held back: {RINGS}. It would briefly drop the link" in before
    assert "To apply them too: add --allow-link-restart." in before
    # After it: the results say it, and so does the report.
    note = held_note(without.held_for_link)
    assert note in out and "To apply them too: add --allow-link-restart." in out
    assert note in report.read_text(encoding="utf-8")
    assert not jargon(out + err), jargon(out + err)

    async with await connect_to_lab(lab, tmp_path) as session:
        args = parser.parse_args(["demo", "--allow-link-restart", "--report", str(report),
                                  "--force"])  # fmt: skip
        agreed = await demo_cmd._flow(session, args)
    out, err = capsys.readouterr()
    before = err.split("==> Baseline measurement")[0]
    assert f"These drop the link briefly when they are applied: {RINGS}" in before
    assert "Held back" not in out + err and agreed.held_for_link == []
    rings = [o.status for o in agreed.tuning_outcomes if o.tweak_id == "nic-rings"]
    assert rings == ["applied"], agreed.tuning_outcomes
    assert _carrier_changes(lab) >= bounces + 2  # the link went down and up, under the guard
    assert "Held back" not in report.read_text(encoding="utf-8")
