"""Keyboard use: Tab through the Connect form and Enter to connect; Ctrl+1…6 for the steps;
the safe button is the default in the dialogs that could change something."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QLabel, QPushButton, QWidget

from sbctune.measure.install import plan_iperf3_install
from sbctune.ui.controllers.wizard import NextAction
from sbctune.ui.main_window import EXTRA, PATH, MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.ui.selftest import SAMPLE_KEY, load_sample_data
from sbctune.ui.widgets.dialogs import HostKeyDialog, InstallIperf3Dialog
from tests.gui.conftest import until
from tests.lab_support import free_port

Drive = Callable[..., Any]
CAPTURES = Path(__file__).resolve().parents[1] / "captures"
OS_RELEASE = "pi4_bullseye_64bit_214.txt"  # a real Pi's (source in that folder's notes)


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "something has the keyboard focus"
    return widget


def _owner(widget: QWidget, candidates: list[QWidget]) -> QWidget | None:
    """The form field `widget` belongs to (an editable combo's or spin box's inner line edit)."""
    for candidate in candidates:
        if widget is candidate or candidate.isAncestorOf(widget):
            return candidate
    return None


def _activate(window: MainWindow, app: QApplication) -> None:
    window.activateWindow()
    window.raise_()
    app.processEvents()


def test_tab_through_the_connect_form_and_enter_connects(
    window: MainWindow, drive: Drive, gui_app: QApplication
) -> None:
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    window.go("connect")
    _activate(window, gui_app)
    page.host.setEditText("")
    page.user.clear()
    page.password.clear()
    page.use_password.setChecked(True)
    page.focus_first()
    gui_app.processEvents()
    fields: list[QWidget] = [page.host, page.port, page.user, page.password]
    port = free_port("127.0.0.1")  # nothing listens there once the probe closed it

    visited = [_owner(_focused(), fields)]
    QTest.keyClicks(_focused(), "127.0.0.1")
    QTest.keyClick(_focused(), Qt.Key.Key_Tab)
    visited.append(_owner(_focused(), fields))
    QTest.keyClick(_focused(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(_focused(), str(port))
    QTest.keyClick(_focused(), Qt.Key.Key_Tab)
    visited.append(_owner(_focused(), fields))
    QTest.keyClicks(_focused(), "pi")
    QTest.keyClick(_focused(), Qt.Key.Key_Tab)
    visited.append(_owner(_focused(), fields))
    QTest.keyClicks(_focused(), "secret")
    assert visited == fields
    assert page.request().host == "127.0.0.1" and page.request().port == port
    assert page.request().user == "pi" and page.request().password == "secret"

    async def enter() -> None:
        QTest.keyClick(_focused(), Qt.Key.Key_Return)
        await until(page.problem.isVisible, 30, "the connect error")

    drive(enter(), timeout=60)
    text = page.problem.message.text() + " " + page.problem.hint.text()
    assert f"refused the connection on port {port}" in text, text


def test_ctrl_digits_switch_the_steps(window: MainWindow, gui_app: QApplication) -> None:
    _activate(window, gui_app)
    for n, key in reversed(list(enumerate(PATH, start=1))):
        QTest.keyClick(window, Qt.Key(Qt.Key.Key_0.value + n), Qt.KeyboardModifier.ControlModifier)
        gui_app.processEvents()
        assert window.current_key() == key, (n, key)


def _enter_answers(dialog: QDialog, app: QApplication) -> int:
    dialog.show()
    dialog.activateWindow()
    app.processEvents()
    QTest.keyClick(dialog, Qt.Key.Key_Return)
    app.processEvents()
    return dialog.result()


def test_enter_in_the_host_key_dialog_does_not_trust(
    window: MainWindow, gui_app: QApplication
) -> None:
    dialog = HostKeyDialog(SAMPLE_KEY, window)
    assert dialog.refuse.isDefault() and not dialog.trust.isDefault()
    assert _enter_answers(dialog, gui_app) == int(QDialog.DialogCode.Rejected)
    dialog.deleteLater()


def test_enter_in_the_install_dialog_does_not_install(
    window: MainWindow, gui_app: QApplication
) -> None:
    # A real Pi's os-release (tests/captures/os_release/, source in that folder's notes).
    os_release = CAPTURES / "os_release" / OS_RELEASE
    plan = plan_iperf3_install(os_release.read_text(encoding="utf-8"), ["apt-get"])
    assert plan.manager == "apt-get"
    dialog = InstallIperf3Dialog(plan, window)
    assert dialog.command.text() == plan.command
    assert dialog.decline.isDefault() and not dialog.install.isDefault()
    assert _enter_answers(dialog, gui_app) == int(QDialog.DialogCode.Rejected)
    dialog.deleteLater()


def mnemonic(text: str) -> str | None:
    """The Alt+letter of a control's text ("&Start" -> "s"; "&&" is a literal ampersand)."""
    at = text.replace("&&", "").find("&")
    rest = text.replace("&&", "")[at + 1 :] if at >= 0 else ""
    return rest[0].lower() if rest else None


def mnemonic_clashes(root: QWidget, taken: dict[str, str]) -> list[str]:
    """Controls under `root` whose Alt+letter another control of the same window has."""
    seen = dict(taken)
    clashes = []
    for widget in root.findChildren(QWidget):
        if isinstance(widget, QAbstractButton) or (isinstance(widget, QLabel) and widget.buddy()):
            text = widget.text()  # type: ignore[attr-defined]
            key = mnemonic(text)
            if key is None:
                continue
            if key in seen:
                clashes.append(f"Alt+{key.upper()}: {seen[key]!r} and {text!r}")
            seen[key] = text
    return clashes


def test_mnemonics_are_unique_in_each_window(window: MainWindow) -> None:
    load_sample_data(window)
    menus = {}
    for action in window.menuBar().actions():
        key = mnemonic(action.text())
        assert key is not None and key not in menus, action.text()
        menus[key] = action.text()
    # What one page shows at a time: its controls, the menu bar and the bar under the pages.
    window.next_bar.show_next(NextAction("tune", "Next: Tune"))
    bar = mnemonic_clashes(window.next_bar, menus)
    assert not bar, bar
    with_bar = menus | {"n": "&Next"}
    clashes = {
        key: found
        for key in (*window.path, *EXTRA)
        if (found := mnemonic_clashes(window.page(key), with_bar))
    }
    assert not clashes, clashes
    os_release = (CAPTURES / "os_release" / OS_RELEASE).read_text(encoding="utf-8")
    install = plan_iperf3_install(os_release, ["apt-get"])
    for dialog in (HostKeyDialog(SAMPLE_KEY, window), InstallIperf3Dialog(install, window)):
        found = mnemonic_clashes(dialog, {})
        assert not found, (type(dialog).__name__, found)


def test_the_mnemonic_check_sees_a_clash(window: MainWindow) -> None:
    holder = QWidget(window)
    QPushButton("&Start", holder)
    QPushButton("&Save", holder)
    assert mnemonic_clashes(holder, {}) == ["Alt+S: '&Start' and '&Save'"]
