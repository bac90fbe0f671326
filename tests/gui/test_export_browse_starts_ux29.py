"""Walk ux29 (1366 x 768 at 150 %, a new user's home without Documents): Results' Browse…
opened the folder dialog in the app's working folder (sbctune's own source tree), as Qt does
for a folder that is not there; the default export folder is made only at the first export.
The dialog opens at the nearest folder of the one shown that exists."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QPushButton

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages import results_export


def test_browse_opens_at_the_nearest_folder_that_exists(
    window: MainWindow, gui_app: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []

    def dialog(_parent: object, _title: str, folder: str) -> str:
        opened.append(folder)
        return ""  # the user cancels

    monkeypatch.setattr(results_export.QFileDialog, "getExistingDirectory", dialog)
    page = window.results_page
    shown = tmp_path / "home" / "Documents" / "sbctune"
    (tmp_path / "home").mkdir()
    page.folder.setText(str(shown))
    window.go("results")
    gui_app.processEvents()
    browse = next(b for b in page.findChildren(QPushButton) if b.text() == "&Browse…")
    browse.click()
    assert opened == [str(tmp_path / "home")]
    assert page.folder.text() == str(shown), "a cancelled dialog leaves the folder as it was"
