"""Exports from the app go to an sbctune folder among the user's documents by default, made
at the first export even where Documents does not exist yet; a typo deeper down is reported,
not made."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.ui.controllers import exporting
from sbctune.ui.controllers.exporting import ExportController
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import Problem
from tests.unit.export.seed_runs import seed_history


def _export(
    tmp_path: Path, folder: Path, drive: Callable[..., Any]
) -> tuple[list[str], list[Problem]]:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    controller = ExportController(TaskRunner(on_error=lambda exc: None), history)
    written: list[str] = []
    problems: list[Problem] = []
    controller.exported.connect(lambda _fmt, path: written.append(path))
    controller.failed.connect(problems.append)
    drive(controller._export(["csv"], ids, folder, False), timeout=30)
    return written, problems


def test_the_default_folder_is_made(
    tmp_path: Path, drive: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    default = tmp_path / "home" / "Documents" / "sbctune"  # no Documents yet
    monkeypatch.setattr(exporting, "default_folder", lambda: default)
    written, problems = _export(tmp_path, default, drive)
    assert not problems and len(written) == 1
    assert Path(written[0]).parent == default and Path(written[0]).stat().st_size > 0


def test_a_typo_deeper_down_is_reported(tmp_path: Path, drive: Callable[..., Any]) -> None:
    typo = tmp_path / "Documnets" / "exports"
    with pytest.raises(Exception, match="does not exist"):
        _export(tmp_path, typo, drive)
    assert not typo.parent.exists()
