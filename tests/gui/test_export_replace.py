"""The results page's own export (to a folder, fixed file names) asks before it replaces a
file that is already there; the question does not block the GUI's event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from sbctune.ui.controllers.exporting import file_name
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.results_page import ResultsPage
from tests.gui.conftest import until
from tests.unit.export.seed_runs import seed_history


def test_an_existing_file_is_replaced_only_after_yes(
    window: MainWindow, drive: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded, ids = seed_history(tmp_path / "history.sqlite3")  # the window's history file
    seeded.close()
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    monkeypatch.setattr(page, "runs", lambda: [window.history.run(i) for i in ids[:1]])
    out = tmp_path / "out"
    out.mkdir()
    target = out / file_name("md", ids[:1])
    target.write_text("my notes\n", encoding="utf-8")
    page.folder.setText(str(out))

    async def answer(button: QMessageBox.StandardButton) -> None:
        page.export(["md"])
        box = page.replace_question
        assert box is not None and box.isVisible() and target.name in box.text()
        box.button(button).click()
        await until(lambda: not box.isVisible(), 10, "the question to close")

    drive(answer(QMessageBox.StandardButton.No), timeout=30)
    drive(_idle(), timeout=10)
    assert target.read_text(encoding="utf-8") == "my notes\n"
    drive(answer(QMessageBox.StandardButton.Yes), timeout=30)
    drive(until(lambda: str(target) in page.export_log.text(), 30, "the export"), timeout=40)
    assert target.read_text(encoding="utf-8").startswith("#")
    assert sorted(p.name for p in out.iterdir()) == [target.name]


async def _idle() -> None:
    await asyncio.sleep(0.3)  # an export, had one started, would have run by now
