"""A step added to the one-click flow (sbctune.workflow's FLOW_STEPS) appears in the desktop
app without GUI code of its own: in the sidebar, in the path's order, on a step page that shows
what it reports."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from sbctune.history import History
from sbctune.remote import KnownHosts
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.step_page import StepPage
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import ThemeManager
from sbctune.workflow import FLOW_STEPS, FlowContext, StepOutcome, StepSpec
from tests.gui.conftest import forget_widgets


async def _latency(ctx: FlowContext) -> StepOutcome:
    return StepOutcome("done", "0.4 ms round trip")


LATENCY = StepSpec("latency", "Latency test", _latency)


@pytest.fixture
def latency_window(
    gui_app: QApplication, drive: Callable[..., Any], tmp_path: Path
) -> Iterator[MainWindow]:
    history = History.open(tmp_path / "history.sqlite3")
    earlier = set(QApplication.topLevelWidgets())
    settings = AppSettings(gui_app)
    theme = ThemeManager(gui_app, settings.theme)
    steps = (FLOW_STEPS[0], LATENCY, *FLOW_STEPS[1:])
    win = MainWindow(
        history,
        settings,
        theme,
        known_hosts=lambda: KnownHosts(read_from=[], write_to=tmp_path / "kh"),
        steps=steps,
    )
    win.show()
    try:
        yield win
    finally:
        drive(win.runner.shutdown(), timeout=30)
        win._closing = True
        win.close()
        win.deleteLater()
        history.close()
        forget_widgets(earlier)


def _sidebar(window: MainWindow) -> list[str]:
    items = (window.sidebar.item(row) for row in range(window.sidebar.count()))
    return [i.text() for i in items if i is not None and i.text()]


def test_a_new_flow_step_is_listed_and_shows_its_progress(
    latency_window: MainWindow, gui_app: QApplication
) -> None:
    window = latency_window
    assert _sidebar(window)[:7] == [
        "1  Connect",
        "2  Inspect",
        "3  Baseline",
        "4  Latency test",
        "5  Tune",
        "6  Measure again",
        "7  Results",
    ]
    page = window.page("latency")
    assert isinstance(page, StepPage)
    window.flow.step.emit("latency", "started", "Latency test")
    gui_app.processEvents()
    assert window.stack.currentWidget() is page and page.status.text() == "Running…"
    window.flow.step.emit("latency", "done", "0.4 ms round trip")
    gui_app.processEvents()
    assert page.status.text() == "Done." and "0.4 ms round trip" in page.log.toPlainText()
    assert "Latency test: done." in window.statusBar().currentMessage()
    current = window.sidebar.currentItem()
    assert current is not None and current.data(Qt.ItemDataRole.UserRole) == "latency"


def test_the_usual_path_has_no_step_page(window: MainWindow) -> None:
    assert not window.step_pages
    assert _sidebar(window)[:6] == [
        "1  Connect",
        "2  Inspect",
        "3  Baseline",
        "4  Tune",
        "5  Measure again",
        "6  Results",
    ]
