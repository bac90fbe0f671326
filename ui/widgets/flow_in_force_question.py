"""Before Tune & Measure or "Find what helps" with tuning in force on the Pi: its baseline would
be the tuned speed. The question says so in the Baseline page's words
(sbctune.workflow.flow_baseline) and offers to revert first, or to cancel. Shown with open(),
not exec(): the event loop keeps running."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget

from sbctune.ui.controllers.flow import FlowBaselineCheck, revert_choice


class FlowInForceQuestion(QMessageBox):
    def __init__(
        self,
        parent: QWidget,
        what: str,
        check: FlowBaselineCheck,
        revert_then_start: Callable[[], None],
    ) -> None:
        """`revert_then_start()` when the user chooses to revert first; nothing on Cancel."""
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Question)
        self.setWindowTitle(what)
        text, detail = check.question(what)
        self.setText(text)
        self.setInformativeText(detail)
        words = revert_choice(what).replace("&", "&&")  # "Tune & Measure": a literal "&"
        self.revert_button = self.addButton("&" + words, QMessageBox.ButtonRole.AcceptRole)
        self.cancel_button = self.addButton("&Cancel", QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.cancel_button)  # Enter changes nothing on the Pi

        def clicked(button: object) -> None:
            if button is self.revert_button:
                revert_then_start()

        self.buttonClicked.connect(clicked)
