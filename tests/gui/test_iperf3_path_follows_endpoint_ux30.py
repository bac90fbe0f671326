"""Settings: the iperf3 program's field and its Browse… are for the system iperf3 only; under
"Built-in" neither takes input (walk ux29 at 800 x 600 on X: Browse… stayed enabled beside the
greyed field, as if the built-in speed test used a program chosen there)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QPushButton

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.settings_page import SettingsPage


def test_the_iperf3_program_row_follows_the_endpoint(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.settings.endpoint_kind = "builtin"
    window.go("settings")
    page = window.page("settings")
    assert isinstance(page, SettingsPage)
    gui_app.processEvents()
    (browse,) = [b for b in page.findChildren(QPushButton) if b.text() == "&Browse…"]
    row = (page.iperf3_path, browse)
    assert page.endpoint.currentData() == "builtin"
    assert not any(w.isEnabled() for w in row)
    page.endpoint.setCurrentIndex(page.endpoint.findData("iperf3"))
    gui_app.processEvents()
    assert all(w.isEnabled() for w in row)
    page.endpoint.setCurrentIndex(page.endpoint.findData("builtin"))
    gui_app.processEvents()
    assert not any(w.isEnabled() for w in row)
    window.settings.endpoint_kind = "builtin"
