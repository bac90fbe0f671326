"""The Help menu held only About (issue 22 walk): a new user gets "Getting started" (the steps,
what the lab is, what the guard does; its text from resources/) and "Keyboard shortcuts"."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMenu

from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.help_dialogs import GettingStartedDialog, ShortcutsDialog
from tests.gui.test_keyboard import mnemonic
from tests.plain_words import jargon


def _help(window: MainWindow) -> QMenu:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert isinstance(menu, QMenu)
    return menu


def test_help_offers_getting_started_and_the_shortcuts(
    window: MainWindow, gui_app: QApplication
) -> None:
    actions = [a for a in _help(window).actions() if not a.isSeparator()]
    names = [a.text() for a in actions]
    assert names == ["&Getting started", "&Keyboard shortcuts", "&About sbctune"]
    keys = [mnemonic(n) for n in names]
    assert len(set(keys)) == len(keys)  # unique in the menu
    actions[0].trigger()
    gui_app.processEvents()
    started = window.help_dialog
    assert isinstance(started, GettingStartedDialog) and started.isVisible()
    text = started.browser.toPlainText()
    for step in ("Connect", "Inspect", "Baseline", "Tune", "Measure again", "Results"):
        assert step in text
    assert "guard" in text and "lab" in text and "Keep" in text
    assert not jargon(text), jargon(text)
    started.close()
    actions[1].trigger()
    gui_app.processEvents()
    shortcuts = window.help_dialog
    assert isinstance(shortcuts, ShortcutsDialog) and shortcuts.isVisible()
    text = shortcuts.browser.toPlainText()
    # Read from the window's own actions: the step keys, Quit, F1 for this help.
    assert "Ctrl+1" in text and "Connect" in text and "Ctrl+6" in text and "Results" in text
    assert "F1" in text and "Getting started" in text and "Alt + underlined letter" in text
    shortcuts.close()
