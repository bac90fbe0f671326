"""The card that offers to revert (or keep) a tuning session found on the Pi at connect."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from sbctune.ui.widgets.common import Card, label
from sbctune.workflow.leftover import LeftoverNotice

LEFTOVER_HEADING = "Tuning left on this Pi"
# Once settled the heading says how (walk 14: after "Revert it now" it still said "left on").
SETTLED_HEADING = {True: "Earlier tuning kept", False: "Earlier tuning reverted"}


class LeftoverCard(Card):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(LEFTOVER_HEADING, parent)
        self.setObjectName("card")
        self.headline = label("", selectable=True)
        self.detail = label("", selectable=True)
        self.revert_button = QPushButton("Revert i&t now")
        self.revert_button.setAccessibleName("Revert the tuning session left on the Pi")
        self.keep_button = QPushButton("Kee&p it")
        self.keep_button.setAccessibleName("Keep the tuning session left on the Pi")
        self.next_button = QPushButton("Continue to &Inspect")
        self.next_button.setObjectName("primary")
        self.next_button.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.revert_button)
        buttons.addStretch(1)
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.next_button)
        self.body.addWidget(self.headline)
        self.body.addWidget(self.detail)
        self.body.addLayout(buttons)
        self.hide()

    def show_notice(self, notice: LeftoverNotice) -> None:
        self.title.setText(LEFTOVER_HEADING)
        self.headline.setText(notice.headline)
        # Urgent (it will never revert by itself) reads as an error; the rest as a note.
        self.headline.setObjectName("errorText" if notice.urgent else "")
        self.headline.style().unpolish(self.headline)
        self.headline.style().polish(self.headline)
        self.detail.setText(notice.detail)
        self.detail.show()
        self.revert_button.show()
        self.next_button.hide()
        self.keep_button.setVisible(notice.can_keep)
        self.revert_button.setObjectName("primary" if notice.urgent else "")
        self.revert_button.style().unpolish(self.revert_button)
        self.revert_button.style().polish(self.revert_button)
        self.set_busy(False)
        self.show()

    def set_busy(self, busy: bool) -> None:
        self.revert_button.setEnabled(not busy)
        self.keep_button.setEnabled(not busy)

    def settled(self, text: str, kept: bool) -> None:
        self.title.setText(SETTLED_HEADING[kept])
        self.headline.setText(text)
        self.headline.setObjectName("")
        self.headline.style().unpolish(self.headline)
        self.headline.style().polish(self.headline)
        self.detail.setText("")
        self.detail.hide()
        self.revert_button.hide()
        self.keep_button.hide()
        self.next_button.show()
