"""After "Export all" the Results page shows the lines the export wrote and the buttons that
open them (the s13 walk at 800x600: they were written below the window's edge, out of sight)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.selftest import load_sample_data
from tests.gui.conftest import until


def _in_view(page: ResultsPage, widget: QWidget) -> bool:
    viewport = page.viewport()
    top = widget.mapTo(viewport, QPoint(0, 0)).y()
    return top >= 0 and top + widget.height() <= viewport.height()


def _written(page: ResultsPage) -> int:
    return len([t for t in page.export_log.text().splitlines() if t != "Exporting…"])


def test_export_all_scrolls_to_what_it_wrote(
    window: MainWindow, gui_app: QApplication, drive: Any, tmp_path: Path
) -> None:
    window.resize(800, 600)
    window.show()
    load_sample_data(window)
    window.go("results")
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    gui_app.processEvents()
    page.verticalScrollBar().setValue(0)  # the user reads the figures at the top
    gui_app.processEvents()
    assert not _in_view(page, page.export_all), "the window is small enough to need a scroll"
    page.folder.setText(str(tmp_path))
    formats = [f for f, b in page.export_buttons.items() if b.isEnabled()]
    page.export_all.click()
    # The sample runs have no bundle: that format says so in the export card, the rest write.
    done = f"{len(formats) - 1} exports and a problem: {formats}"
    drive(until(lambda: _written(page) == len(formats) - 1 and page.export_problem.isVisible()
                and "Exporting…" not in page.export_log.text(), 60, done), 90)  # fmt: skip
    assert "bundle" in page.export_problem.message.text()
    assert not page.problem.isVisible()
    drive(until(lambda: _in_view(page, page.opened), 5, "the export's lines in view"), 10)
    assert _in_view(page, page.export_log), page.export_log.text()
    assert _in_view(page, page.opened)
    assert _in_view(page, page.export_problem)
