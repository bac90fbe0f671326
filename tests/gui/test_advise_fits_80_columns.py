"""Walk 24: `sbctune advise` in an 80-column terminal printed each recommendation's detail on
one line (372 columns on the pi3bplus-lan78xx lab), cut by the terminal. Its text is fit to
the terminal as every other command's; a pipe keeps whole lines.
(In tests/gui: the sample runs come from the app's sample data, which imports Qt.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.cli import fit as fit_module
from sbctune.history import History
from sbctune.ui import sample_data
from tests.lab_support import cli_run


def _sample_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> int:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    with History.open() as history:
        device_id, _before, after = sample_data.sample_runs(history)
        inventory = sample_data.sample_inventory()
        history.save_inventory(device_id, inventory.to_json())
    assert after.id is not None
    return after.id


def test_advise_fits_an_80_column_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = _sample_run(monkeypatch, tmp_path)
    code, piped, _err = cli_run(["advise", str(run)], capsys)
    assert code == 0 and max(len(line) for line in piped.splitlines()) >= 80  # whole lines
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)
    code, out, _err = cli_run(["advise", str(run)], capsys)
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) < 80, [x for x in lines if len(x) >= 80]
    assert " ".join(out.split()) == " ".join(piped.split())  # the same words, only wrapped


def test_compare_ends_with_a_note_that_fits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`compare`'s closing note was broken by hand at 81 columns: cut at 80."""
    after = _sample_run(monkeypatch, tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)
    code, out, _err = cli_run(["compare", str(after - 1), str(after)], capsys)
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) < 80, [x for x in lines if len(x) >= 80]
    assert "Each change comes with its 95 % interval" in out
