"""Walk 27 (150 % on 1366 x 768): the app's first window held the Connect page without its menu
bar; once the window was filled the bar came and the page moved 28 px down, so a click aimed
at the password field while the app started landed on the login choice above it. The menu
bar (File, Go, Help) is there from the first paint and the page's fields stay where they are."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from sbctune.history import History
from sbctune.remote import KnownHosts
from sbctune.ui.app import make_window
from tests.gui.conftest import until


def test_the_connect_fields_do_not_move_when_the_window_fills(
    gui_app: QApplication, drive: Callable[..., Any], tmp_path: Path
) -> None:
    history = History.open(tmp_path / "history.sqlite3")
    window = make_window(
        gui_app,
        history=history,
        known_hosts=lambda: KnownHosts(read_from=[], write_to=tmp_path / "known_hosts"),
        staged=True,
    )
    window.show_fitted()
    try:
        # Read at once: with the core imported by earlier tests, the window fills as soon as
        # events run.
        layout = window.layout()
        assert layout is not None
        layout.activate()
        assert not window.ready, "still the first window"
        titles = [a.text() for a in window.menuBar().actions()]
        assert titles == ["&File", "&Go", "&Help"]
        page = window.connect_page
        before = page.password.mapTo(window, QPoint(0, 0))

        async def filled() -> None:
            await until(lambda: window.ready, 60, "the window filled")

        drive(filled(), timeout=90)
        for _ in range(5):
            gui_app.processEvents()
        assert page.password.mapTo(window, QPoint(0, 0)) == before
        assert [a.text() for a in window.menuBar().actions()] == titles, "no second bar"
        go = window.menuBar().actions()[1].menu()
        assert go is not None and len(go.actions()) >= 6, "the Go menu is filled"
    finally:

        async def close() -> None:
            await window.runner.shutdown()
            await window.connection.close_session()

        drive(close(), timeout=90)
        window._closing = True
        window.close()
        window.deleteLater()
        history.close()
