""" "Show in folder" on a desktop where nothing opens folders says so, names the folder, and
offers its path on the clipboard (walk 14, problem 6: on a bare openbox desktop xdg-open failed
with "no method available" and the app said nothing)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from sbctune.ui.main_window import MainWindow

# What xdg-open (xdg-utils 1.1.3) does on a desktop it does not know with no opener installed:
# `exit_failure_operation_impossible "no method available for opening '$1'"`, status 3.
NO_METHOD = """#!/bin/sh
echo "xdg-open: no method available for opening '$1'" >&2
exit 3
"""


@pytest.mark.posix_only("a shell script stands for xdg-open on PATH")
def test_show_in_folder_without_a_file_manager(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "xdg-open"
    fake.write_text(NO_METHOD, encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr("sys.platform", "linux")
    folder = tmp_path / "Documents" / "sbctune"
    folder.mkdir(parents=True)
    (folder / "run-1.csv").write_text("x\n", encoding="utf-8")
    page = window.results_page
    page._exported("csv", str(folder / "run-1.csv"))
    assert not page.export_problem.isVisible()
    page.show_folder_button.click()
    qtbot.waitUntil(lambda: page.export_problem.message.text() != "", timeout=10_000)
    said = page.export_problem.message.text() + " " + page.export_problem.hint.text()
    assert "No program on this computer could open the folder" in said and str(folder) in said
    page.copy_path_button.click()
    assert QApplication.clipboard().text() == str(folder)
    assert f"Copied: {folder}" in page.export_log.text()
