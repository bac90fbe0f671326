"""Keys typed while the app is still starting are not lost (issue 22).

The app's window first holds the Connect page alone (the rest is made once it is painted): the
user can type the host, user and password at once, and press Enter. What was typed is still
there once the window is filled (a saved password does not overwrite a typed one), and an Enter
pressed before connects once the window can.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.history import History
from sbctune.remote import KnownHosts
from sbctune.ui.app import make_window
from sbctune.ui.main_window import MainWindow
from sbctune.ui.settings import AppSettings
from tests.gui.conftest import until


@pytest.fixture
def starting(
    gui_app: QApplication, drive: Callable[..., Any], tmp_path: Path
) -> Iterator[MainWindow]:
    """The app's own start-up: a staged window, shown, not filled yet; no remembered Pi."""
    history = History.open(tmp_path / "history.sqlite3")
    # The settings live as long as the test session: other tests leave a Pi and a key there.
    AppSettings(gui_app).remember_connection(
        {"host": "", "port": "22", "user": "", "auth": "password", "key_file": ""}
    )
    window = make_window(
        gui_app,
        history=history,
        known_hosts=lambda: KnownHosts(read_from=[], write_to=tmp_path / "known_hosts"),
        staged=True,
    )
    assert window.connect_page.use_password.isChecked()
    window.show_fitted()
    try:
        yield window
    finally:

        async def close() -> None:
            await until(lambda: window.ready, 60, "the window filled")
            await window.runner.shutdown()
            await window.connection.close_session()

        drive(close(), timeout=90)
        window._closing = True
        window.close()
        window.deleteLater()
        history.close()


def _type(text: str) -> None:
    """As a keyboard does: to whatever has the focus now."""
    for char in text:
        focused = QApplication.focusWidget()
        assert isinstance(focused, QWidget), "no widget has the keyboard focus"
        QTest.keyClick(focused, char)


def _key(key: Qt.Key) -> None:
    focused = QApplication.focusWidget()
    assert isinstance(focused, QWidget), "no widget has the keyboard focus"
    QTest.keyClick(focused, key)


def test_keys_typed_before_the_window_is_filled_land_in_the_fields(
    starting: MainWindow, drive: Callable[..., Any]
) -> None:
    page = starting.connect_page
    assert not starting.ready  # still starting: only the Connect page is there
    _type("198.18.0.9")
    _key(Qt.Key.Key_Tab)  # the port
    _key(Qt.Key.Key_Tab)  # the user
    _type("pi")
    _key(Qt.Key.Key_Tab)  # the password
    _type("s3cret")
    assert not starting.ready  # all of it typed before the rest was made

    drive(until(lambda: starting.ready, 60, "the window filled"))
    assert page.host.currentText() == "198.18.0.9"
    assert page.user.text() == "pi"
    assert page.password.text() == "s3cret"
    assert starting.current_key() == "connect"
    _type("!")  # and typing goes on where it was
    assert page.password.text() == "s3cret!"


def test_enter_pressed_before_the_window_is_filled_connects_after(
    starting: MainWindow, drive: Callable[..., Any]
) -> None:
    page = starting.connect_page
    _type("127.0.0.1")  # nothing listens on port 9 here: the connection is refused
    page.port.setValue(9)
    page.user.setFocus()
    _type("pi")
    _key(Qt.Key.Key_Tab)
    _type("pw")
    _key(Qt.Key.Key_Return)
    assert not starting.ready
    assert page.status.text() == "Starting…" and not page.connect_button.isEnabled()

    async def failed() -> None:
        await until(lambda: starting.ready, 60, "the window filled")
        await until(lambda: page.problem.isVisible(), 30, "the connection's problem shown")
        await asyncio.sleep(0)

    drive(failed())
    assert "refused" in page.problem.message.text().lower(), page.problem.message.text()
    assert page.connect_button.isEnabled()
