"""The command line's human output against the lab, as a new user runs it, in plain words
(tests/plain_words.py): connect, inspect, measure, advise, tune plan, apply, status, revert,
history, compare. The exact commands appear only when asked for (`--show-commands`); a tweak's
id only right after "--tweak", where the user types it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.conftest import OUTPUT_DIR
from tests.lab_support import cli_as_user, cli_output
from tests.plain_words import jargon, stale_terms

pytestmark = [pytest.mark.lab]


def test_the_cli_speaks_plainly_against_the_lab(
    lab: LabInfo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pi = cli_as_user(lab, tmp_path, monkeypatch)
    short = ["--duration", "2", "--omit", "1", "--trials", "1"]
    outputs = {
        "connect": cli_output(["connect", pi, "--accept-new-host-key"], capsys),
        "inspect": cli_output(["inspect", pi], capsys),
        "measure": cli_output(["measure", pi, *short], capsys),
        "advise": cli_output(["advise", pi], capsys),
        "tune plan": cli_output(["tune", "plan", pi], capsys),
        "tune apply": cli_output(
            ["tune", "apply", pi, "--guard", "60", "--tweak", "cpu-governor-performance"], capsys
        ),
        "tune status": cli_output(["tune", "status", pi], capsys),
        "measure tuned": cli_output(["measure", pi, *short], capsys),
        "tune revert": cli_output(["tune", "revert", pi], capsys),
        "history": cli_output(["history"], capsys),
    }
    runs = re.findall(r"Saved as run (\d+)", outputs["measure"] + outputs["measure tuned"])
    assert len(runs) == 2, outputs["measure"]
    outputs["compare"] = cli_output(["compare", *runs], capsys)
    saved = OUTPUT_DIR / "cli-output"  # what the user read, kept for a look
    saved.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        (saved / f"{name.replace(' ', '-')}.txt").write_text(text, encoding="utf-8")
    found = {
        name: hits
        for name, text in outputs.items()
        if (hits := jargon(text, cli=True) + stale_terms(text))  # the window's mode and unit words
    }
    assert not found, "\n".join(f"{k}: {h}" for k, hs in found.items() for h in hs)

    plan = outputs["tune plan"]
    assert "Tuning plan for" in plan and "$ sudo" not in plan
    assert "Add --show-commands to see the exact commands" in plan
    assert "(to choose it alone: --tweak rps-rfs)" in plan
    shown = cli_output(["tune", "plan", pi, "--show-commands"], capsys)
    assert "$ sudo" in shown, "asked for, the commands are shown"
