"""A lab-driven path (connect, inspect, a short baseline, one tweak applied, Results, Revert):

- after Revert the keyboard focus stays with what Revert did (the line saying the Pi is as it
  was), not on the next field down the page (the export folder, where it used to jump when
  the pressed button was disabled), nor the sidebar;
- then every page, the status bar and the logs read in plain words (tests/plain_words.py),
  with what the lab's Pi really said in them, not sample data."""

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
from tests.gui.test_plain_words import texts
from tests.gui.test_wizard_lab import ONE_TRIAL, connect_via_dialog
from tests.plain_words import jargon

pytestmark = [pytest.mark.lab]

GOVERNOR = "cpu-governor-performance"  # a tweak every lab profile can apply and put back


def test_focus_after_revert_is_not_the_export_folder(
    lab: LabInfo,
    window: MainWindow,
    drive: Callable[..., Any],
    gui_app: QApplication,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: ONE_TRIAL)
    tune = window.page("tune")
    results = window.page("results")
    assert isinstance(tune, TunePage) and isinstance(results, ResultsPage)

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("baseline")
        window.baseline_page.start_button.click()
        await until(lambda: window.baseline.running, 10, "the baseline starts")
        await window.baseline.wait()
        assert window.state.baseline is not None
        window.go("tune")
        await until(lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks")
        for row in tune.tweak_rows:
            row.check.setChecked(row.tweak_id == GOVERNOR)
        assert tune.selected() == [GOVERNOR]
        tune.apply_button.click()
        await until(lambda: window.state.tuning_state == "guarded", 90, "the tweak applied")
        said = tune.events.toPlainText()  # the tuning log: when, not the session's id or path
        assert "tuning applied at " in said and "so it can be put back" in said, said
        window.go("results")
        window.resize(800, 600)  # a small laptop's window: the page scrolls
        window.activateWindow()
        await until(lambda: results.revert_button.isEnabled(), 10, "Revert enabled")
        results.revert_button.setFocus(Qt.FocusReason.TabFocusReason)
        results.ensureWidgetVisible(results.revert_button, 0, 0)  # scrolled down to it
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
        top = results.tuning_text.mapTo(results.viewport(), results.tuning_text.rect().topLeft())
        assert 0 <= top.y() < results.viewport().height(), "the line saying so is in sight"
        # Tab from there goes on down the page, past the disabled tuning buttons.
        QTest.keyClick(focused, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() not in (
            results.revert_button,
            results.keep_button,
            results.persist_button,
        )

    drive(scenario(), timeout=300)
    found, read = {}, []
    for key in window.pages:
        window.go(key)
        gui_app.processEvents()
        read += texts(window.page(key))
        if hits := [h for t in texts(window.page(key)) for h in jargon(t)]:
            found[key] = hits
    joined = "\n".join(read)
    assert "AX88179" in joined and "CPU frequency governor" in joined, "the lab's words were read"
    bar = [window.statusBar().currentMessage(), *texts(window.statusBar())]
    if hits := [h for t in bar for h in jargon(t)]:
        found["status bar"] = hits
    assert not found, "\n".join(f"{k}: {h}" for k, hs in found.items() for h in hs)
