"""After a failed connect the keyboard is where the user fixes it (found on the s10 walk on X at
800x600: after a wrong password, typing the right one went nowhere until the field was clicked).
An address nobody answers at: the host field, its text selected; a refused login: the password
field, its text selected (typing replaces it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.remote.errors import AuthFailed, ConnectionRefused, HostUnreachable
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.workflow import problem_from
from tests.gui.conftest import until

Drive = Callable[..., Any]


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "something has the keyboard focus"
    return widget


def _page(window: MainWindow, app: QApplication) -> ConnectPage:
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    window.go("connect")
    window.activateWindow()
    window.raise_()
    app.processEvents()
    return page


def test_an_unreachable_host_puts_the_keyboard_in_the_host_field(
    window: MainWindow, drive: Drive, gui_app: QApplication
) -> None:
    page = _page(window, gui_app)
    page.host.setEditText("pi@127.0.0.1:9")  # nothing listens on port 9 (the discard port)
    page.user.setText("pi")
    page.use_password.setChecked(True)
    page.password.setText("secret")
    page.connect_button.setFocus()
    gui_app.processEvents()

    async def enter() -> None:
        QTest.keyClick(page.connect_button, Qt.Key.Key_Return)
        await until(page.problem.isVisible, 30, "the connect error")
        await until(lambda: page.host.isAncestorOf(_focused()), 5, "the host field focused")

    drive(enter(), timeout=60)
    assert "refused the connection on port 9" in page.problem.message.text()
    assert "command line" not in page.problem.hint.text()  # the app's Port field, not host:port
    QTest.keyClicks(_focused(), "198.18.0.2")  # replaces the selected text
    assert page.host.currentText() == "198.18.0.2"


def test_a_refused_login_puts_the_keyboard_in_the_password_field(
    window: MainWindow, gui_app: QApplication
) -> None:
    page = _page(window, gui_app)
    page.host.setEditText("198.18.0.2")
    page.user.setText("pi")
    page.use_password.setChecked(True)
    page.password.setText("wrongpass")
    page.connect_button.setFocus()
    gui_app.processEvents()
    # What the connection controller emits when the Pi refuses the login (the lab tests drive
    # the real refusal; here the page's answer to it).
    page.controller.failed.emit(problem_from(AuthFailed("pi", "198.18.0.2")))
    QTest.qWait(50)
    assert _focused() is page.password
    QTest.keyClicks(_focused(), "right")
    assert page.password.text() == "right"

    page.use_key.setChecked(True)  # with a key: the key file is what to fix
    page.key_file.setText("/nonexistent/id_ed25519")
    page.connect_button.setFocus()
    page.controller.failed.emit(problem_from(AuthFailed("pi", "198.18.0.2")))
    QTest.qWait(50)
    assert _focused() is page.key_file


def test_each_connect_error_names_the_field_to_fix() -> None:
    assert problem_from(AuthFailed("pi", "h")).field == "login"
    assert problem_from(HostUnreachable("h", system="Linux")).field == "host"
    assert problem_from(ConnectionRefused("h", 9)).field == "host"
    assert problem_from(ConnectionRefused("h", 9), "cli").hint.endswith("on the command line.")
    assert problem_from(ValueError("x")).field == ""
