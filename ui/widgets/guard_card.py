"""The Tune page's guard card: what the tuning is now (on trial with its countdown, kept,
reverted), each tweak as the Pi answered, and Keep / Revert now / Measure again."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from sbctune.ui.widgets.common import Card, label
from sbctune.ui.widgets.line_list import LineList
from sbctune.workflow.tune_view import UNTIL_THEN, Button, TuneView


def _button(button: QPushButton, state: Button) -> None:
    button.setEnabled(state.enabled)
    button.setToolTip(state.tip)


class GuardCard(Card):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Auto-revert guard", parent)
        self.countdown = QProgressBar()
        self.countdown.setFormat("%v s left")
        self.countdown.setAccessibleName("Auto-revert guard: seconds left")
        self.words = label("")
        # One tweak a line, a wrapped line indented under its own start (walk ux29).
        self.outcomes = LineList(hangs=lambda line: line != UNTIL_THEN)
        buttons = QHBoxLayout()
        self.confirm_button = QPushButton("&Keep these settings")
        self.confirm_button.setObjectName("primary")
        self.revert_button = QPushButton("Re&vert now")
        self.again_button = QPushButton("Mea&sure again")
        buttons.addWidget(self.revert_button)
        buttons.addStretch(1)
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.again_button)
        for widget in (self.words, self.countdown, self.outcomes):
            self.body.addWidget(widget)
        self.body.addLayout(buttons)
        self.hide()

    def show_view(self, view: TuneView, words: bool = True) -> None:
        """`words`: also say what the session is now (False: keep the words read back last,
        e.g. what the Pi said its guard did)."""
        self.setVisible(view.shown)
        if words:
            self.words.setText(view.words)
        self.outcomes.setText(view.outcomes)
        self.countdown.setVisible(view.countdown)
        _button(self.confirm_button, view.keep)
        _button(self.revert_button, view.revert)
        _button(self.again_button, view.again)
