"""The core's warnings reach the CLI user as `sbctune: warning: ...` lines on stderr, once,
escaped and bounded, even when another library has configured logging."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.cli.log_warnings import MAX_WARNING_CHARS, MAX_WARNINGS, warnings_on_stderr
from sbctune.cli.main import main
from tests.unit.export.seed_runs import seed_history


@pytest.fixture
def root_handler() -> Iterator[io.StringIO]:
    """A root handler as `logging.basicConfig` in some library would add."""
    caught = io.StringIO()
    handler = logging.StreamHandler(caught)
    logging.getLogger().addHandler(handler)
    try:
        yield caught
    finally:
        logging.getLogger().removeHandler(handler)


def test_a_left_out_history_record_is_a_warning_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    root_handler: io.StringIO,
) -> None:  # fmt: skip
    history, ids = seed_history(tmp_path / "history.sqlite3")
    history._conn.execute("UPDATE runs SET plan_json = ? WHERE id = ?", ("[" * 5000, ids[0]))
    history.close()
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    warnings = [line for line in err.splitlines() if line.startswith("sbctune: warning: ")]
    assert len(warnings) == 1, err
    assert warnings[0].startswith(f"sbctune: warning: the history's run {ids[0]} cannot be read")
    assert root_handler.getvalue() == ""  # told once, by the CLI
    assert "lbox" in out


def test_a_warning_quoting_hostile_text_is_escaped_and_bounded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hostile = "line 3 skipped (\x1b]8;;http://x\x07\u202egnp.exe\u200b)" + "x" * 50_000
    with warnings_on_stderr():
        logging.getLogger("sbctune.remote.hostkeys").warning("sbctune: %s", hostile)
        logging.getLogger("sbctune.remote.hostkeys").info("not shown: %s", "info")
    err = capsys.readouterr().err
    assert err.startswith("sbctune: warning: line 3 skipped (")
    assert not any(c in err for c in "\x1b\x07\u202e\u200b"), repr(err[:80])
    assert len(err) < MAX_WARNING_CHARS * 2 and err.count("\n") == 1
    assert "not shown" not in err
    assert logging.getLogger("sbctune").propagate  # left as it was found


def test_a_flood_of_warnings_is_cut_and_counted(capsys: pytest.CaptureFixture[str]) -> None:
    with warnings_on_stderr():
        for n in range(MAX_WARNINGS + 500):
            logging.getLogger("sbctune.history.store").warning("sbctune: run %d left out", n)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == MAX_WARNINGS + 1
    assert lines[0] == "sbctune: warning: run 0 left out"
    assert lines[-1] == "sbctune: warning: 500 more warnings not shown"
