"""Walk ux29 (800 x 600, a keyboard user): Escape while connecting did nothing, and the Connect
page's Cancel had no Alt letter, so a connection to an address nobody answers held the window
~20 s unless the user reached for the mouse. Escape (and Alt+C) stop it now, as in a dialog."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from tests.gui.conftest import until


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A host that takes the TCP connection and never says a word (no SSH banner)."""
    await reader.read()  # until the app hangs up
    writer.close()


def test_escape_stops_a_connection_under_way(
    window: MainWindow, drive: Callable[..., Any], gui_app: QApplication
) -> None:
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    window.go("connect")
    window.activateWindow()
    gui_app.processEvents()
    assert page.cancel_button.text() == "&Cancel"

    async def scenario() -> None:
        server = await asyncio.start_server(_silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            page.host.setEditText("127.0.0.1")
            page.port.setValue(port)
            page.user.setText("pi")
            page.password.setText("secret")
            page.connect_button.click()
            await until(page.cancel_button.isVisible, 10, "connecting")
            await asyncio.sleep(0.3)
            QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Escape)
            await until(page.connect_button.isEnabled, 5, "Connect offered again")
        finally:
            server.close()

    drive(scenario(), timeout=60)
    assert not page.cancel_button.isVisible()
    assert window.state.session is None
