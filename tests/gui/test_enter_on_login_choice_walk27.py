"""Walk 27, keyboard only at 800 x 600: Tab from the user name goes to the password, the
keyring box, then the "Password" / "SSH key or agent" choice. Enter there did nothing, where
Enter in every field connects. Enter on the form's choices connects too, once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from tests.gui.conftest import until
from tests.lab_support import free_port

Drive = Callable[..., Any]


@pytest.mark.parametrize("choice", ["use_password", "use_key", "remember"])
def test_enter_on_a_login_choice_connects(
    window: MainWindow, drive: Drive, gui_app: QApplication, choice: str
) -> None:
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    window.go("connect")
    window.activateWindow()
    port = free_port("127.0.0.1")  # nothing listens there once the probe closed it
    page.host.setEditText("127.0.0.1")
    page.port.setValue(port)
    page.user.setText("pi")
    page.password.setText("secret")
    page.use_password.setChecked(True)
    widget = getattr(page, choice)
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    gui_app.processEvents()
    assert widget.hasFocus()
    asked: list[object] = []
    page.controller.busy.connect(lambda busy: busy and asked.append(busy))

    async def enter() -> None:
        QTest.keyClick(widget, Qt.Key.Key_Return)
        await until(page.problem.isVisible, 30, "the connect error")

    drive(enter(), timeout=60)
    text = page.problem.message.text() + " " + page.problem.hint.text()
    assert f"refused the connection on port {port}" in text, text
    assert len(asked) == 1, "one Enter, one connection"
