"""Walk 24 in an 80-column terminal: `history` ended with an 81-column hint line ("Compare: …
Export: sbctune export RUN… -f html -o r.html") that the terminal cut, and `export --help`
listed the eight formats twice on one 98-column line (argparse's own listing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.cli import fit as fit_module
from sbctune.history import History
from tests.lab_support import cli_run


def _a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)


def test_history_ends_with_hints_that_fit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    with History.open() as history:
        history.add_device("198.18.0.2", 22, "pi", "raspberrypi")
    _a_terminal(monkeypatch)
    code, out, _err = cli_run(["history"], capsys)
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) < 80, lines
    assert lines[-2:] == ["Compare: sbctune compare RUN RUN…",
                          "Export:  sbctune export RUN… -f html -o r.html"]  # fmt: skip


def test_export_help_fits_and_names_each_format_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _err = cli_run(["export", "--help"], capsys)
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) < 80, lines
    # Python 3.13's argparse names the metavar once ("--format, -f FORMAT"; the Windows lane's
    # embeddable CPython), 3.11's after each flag
    forms = ("  --format FORMAT, -f FORMAT", "  --format, -f FORMAT")
    assert any(line.startswith(forms) for line in lines), lines
    assert out.count("ansible, bundle, png") == 1


def test_an_error_and_its_hint_fit_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The errors' hints went to stderr whole: a wrong password's was 163 columns at 80."""
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    code, _out, piped = cli_run(["advise", "999"], capsys)
    assert code != 0 and max(len(line) for line in piped.splitlines()) >= 80  # a pipe: whole
    _a_terminal(monkeypatch)
    code, _out, err = cli_run(["advise", "999"], capsys)
    lines = err.splitlines()
    assert code != 0 and max(len(line) for line in lines) < 80, lines
    assert lines[0] == "sbctune: There is no run 999 in the history."
    assert " ".join(err.split()) == " ".join(piped.split())
