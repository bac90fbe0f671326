"""Help for a first-time user (issue 22 walk): "Getting started" (its text in
resources/ui/getting_started.md) and "Keyboard shortcuts" (read from the window's own
actions, so the list cannot drift from what the keys do)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from sbctune.resources import resource_root

# What works everywhere, besides the menu commands' own shortcuts.
GENERAL_KEYS = [
    ("Alt + underlined letter", "the button or field with that letter underlined"),
    ("Tab / Shift+Tab", "the next / previous field or button"),
    ("Enter", "Connect, in the Connect fields"),
    ("Space", "press the button that has the focus"),
    ("Esc", "close a dialog without doing anything"),
]


def getting_started_text() -> str:
    path = resource_root() / "ui" / "getting_started.md"
    return str(path.read_text(encoding="utf-8"))


def shortcut_rows(actions: list[QAction]) -> list[tuple[str, str]]:
    """(keys, what they do) for every action with a shortcut, then the general keys."""
    rows = []
    for action in actions:
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if keys:
            rows.append((keys, action.text().replace("&", "")))
    return [*rows, *GENERAL_KEYS]


class _TextDialog(QDialog):
    def __init__(self, title: str, markdown: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # nothing to follow: the text is the app's own
        self.browser.setMarkdown(markdown)
        self.browser.setAccessibleName(title)
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)
        self.resize(560, 520)


class GettingStartedDialog(_TextDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Getting started", getting_started_text(), parent)
        self.setObjectName("gettingStartedDialog")


class ShortcutsDialog(_TextDialog):
    def __init__(self, actions: list[QAction], parent: QWidget | None = None) -> None:
        lines = [f"| {keys} | {what} |" for keys, what in shortcut_rows(actions)]
        table = "| Keys | What they do |\n|---|---|\n" + "\n".join(lines)
        super().__init__("Keyboard shortcuts", table, parent)
        self.setObjectName("shortcutsDialog")
