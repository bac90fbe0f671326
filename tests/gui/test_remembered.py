"""What a desktop user expects to find again: the plan picked for the baseline, and the last
Pi, user, login method and key file on the Connect page (kept in the app's settings)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from sbctune.history import History
from sbctune.remote import KnownHosts
from sbctune.ui.app import make_window
from sbctune.ui.main_window import MainWindow


def _another_window(gui_app: QApplication, tmp_path: Path) -> MainWindow:
    return make_window(
        gui_app,
        history=History.open(tmp_path / "again.sqlite3"),
        known_hosts=lambda: KnownHosts(read_from=[], write_to=tmp_path / "kh"),
    )


def test_the_baseline_plan_is_remembered(
    window: MainWindow, gui_app: QApplication, tmp_path: Path
) -> None:
    window.go("baseline")
    page = window.baseline_page
    page.plan.setCurrentIndex(page.plan.findData("thorough"))
    assert window.settings.default_plan == "thorough"
    later = _another_window(gui_app, tmp_path)
    later.go("baseline")
    assert later.baseline_page.plan.currentData() == "thorough"
    later.close()


def test_the_last_connection_is_remembered(
    window: MainWindow, gui_app: QApplication, tmp_path: Path
) -> None:
    before = window.settings.last_connection()
    window.settings.remember_connection(
        {"host": "198.18.0.2", "port": "2222", "user": "pi", "auth": "key",
         "key_file": "/home/u/.ssh/id_ed25519"}
    )  # fmt: skip
    try:
        later = _another_window(gui_app, tmp_path)
        page = later.connect_page
        assert page.host.currentText() == "198.18.0.2"
        assert page.port.value() == 2222
        assert page.user.text() == "pi"
        assert page.use_key.isChecked()
        assert page.key_file.text() == "/home/u/.ssh/id_ed25519"
        later.close()
    finally:
        # The settings file lives as long as the test session: a remembered Pi left here makes
        # every later window start a keyring read on show (its task then runs in whatever
        # processEvents() a later test calls, outside the asyncio loop).
        window.settings.remember_connection(before)


def test_user_at_host_typed_in_the_host_field_is_remembered_as_its_parts(
    window: MainWindow, gui_app: QApplication, tmp_path: Path
) -> None:
    """Walk 26: after connecting with "pi@198.18.4.2" in the host field (as `gui --demo
    pi@HOST` and many ssh users type it), the app opened again with that whole text as the host
    and the focus on an empty User field, where a name typed would be ignored."""
    from sbctune.workflow.state import ConnectedInfo

    before = window.settings.last_connection()
    page = window.connect_page
    page.host.setEditText("pi@198.18.4.2")
    page.user.setText("")
    info = ConnectedInfo("pi@raspberrypi", "raspberrypi", "6.1", "pi", "password", True)
    page.connected.disconnect()  # the page's own remembering only, no flow behind it
    try:
        page._connected(info)
        later = _another_window(gui_app, tmp_path)
        assert later.connect_page.host.currentText() == "198.18.4.2"
        assert later.connect_page.user.text() == "pi"
        later.close()
    finally:
        window.settings.remember_connection(before)
