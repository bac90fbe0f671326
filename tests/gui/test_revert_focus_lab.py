"""After Revert on the Results page the keyboard focus stays with what Revert did (the line
saying the Pi is as it was), not on the next field down the page (the export folder, where
it used to jump when the pressed button was disabled). Against the lab, keyboard only from
the Revert button on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import connect_via_dialog

pytestmark = [pytest.mark.lab]

GOVERNOR = "cpu-governor-performance"  # a tweak every lab profile can apply and put back


def test_focus_after_revert_is_not_the_export_folder(
    lab: LabInfo, window: MainWindow, drive: Callable[..., Any], gui_app: QApplication
) -> None:
    tune = window.page("tune")
    results = window.page("results")
    assert isinstance(tune, TunePage) and isinstance(results, ResultsPage)

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("tune")
        await until(lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks")
        for row in tune.tweak_rows:
            row.check.setChecked(row.tweak_id == GOVERNOR)
        assert tune.selected() == [GOVERNOR]
        tune.apply_button.click()
        await until(lambda: window.state.tuning_state == "guarded", 90, "the tweak applied")
        window.go("results")
        window.activateWindow()
        await until(lambda: results.revert_button.isEnabled(), 10, "Revert enabled")
        results.revert_button.setFocus(Qt.FocusReason.TabFocusReason)
        gui_app.processEvents()
        assert results.revert_button.hasFocus()
        QTest.keyClick(results.revert_button, Qt.Key.Key_Space)  # as a keyboard user presses it
        await until(lambda: window.state.tuning_state == "reverted", 90, "the revert")
        await until(lambda: not results.revert_button.isEnabled(), 10, "Revert disabled")
        gui_app.processEvents()
        focused = QApplication.focusWidget()
        assert focused is not results.folder, "the focus jumped to the export folder"
        assert focused is results.tuning_text, focused
        assert results.tuning_text.text().startswith("Reverted: the Pi is as it was before.")
        # Tab from there goes on down the page, past the disabled tuning buttons.
        QTest.keyClick(focused, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() not in (
            results.revert_button,
            results.keep_button,
            results.persist_button,
        )

    drive(scenario(), timeout=300)
