"""What people read outside the app speaks plainly too (tests/plain_words.py): the CLI's
human output of `sbctune inspect` on every captured bundle, and the exported reports (HTML,
Markdown, CSV, SVG) of runs with a tuning session. What the report quotes from the Pi's own
files (the lines a tweak wrote into config.txt) is the file's text, left as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sbctune.cli.main import main as cli_main
from sbctune.export import export, gather
from tests.plain_words import jargon
from tests.unit.export.seed_runs import seed_history

BUNDLES = sorted((Path(__file__).resolve().parents[1] / "captures" / "bundles").iterdir())
QUOTED = re.compile(r'<td class="changes">.*?</td>', re.S)  # the Pi's file lines, verbatim


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_inspect_speaks_plainly(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cli_main(["inspect", str(bundle)])
    out = capsys.readouterr()
    assert "NIC" in out.out or "Board" in out.out  # it did print the inventory
    assert not jargon(out.out + out.err)


@pytest.mark.parametrize("fmt", ["html", "md", "csv", "svg"])
def test_reports_speak_plainly(fmt: str, tmp_path: Path) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    with history:
        path = export(fmt, gather(history, ids), tmp_path / f"report.{fmt}")
    text = QUOTED.sub("", path.read_text(encoding="utf-8"))
    assert not jargon(text), jargon(text)
