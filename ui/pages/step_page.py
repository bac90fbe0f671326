"""A step of the one-click flow with no page of its own (a step added to
sbctune.workflow.steps.FLOW_STEPS): its title, and what it said as it ran."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit

from sbctune.ui.pages.base import Page
from sbctune.ui.widgets.common import label


class StepPage(Page):
    def __init__(self, number: int, title: str) -> None:
        self.title = f"{number} · {title}"
        self.intro = "Runs as part of Tune & Measure; what it reports shows here."
        super().__init__()
        self.status = label("Not run yet.", name="muted", selectable=True)
        self.content.addWidget(self.status)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setAccessibleName(f"{title}: progress")
        self.content.addWidget(self.log)
        self.content.addStretch(1)

    def flow_progress(self, status: str, detail: str) -> None:
        self.status.setText(
            {
                "started": "Running…",
                "done": "Done.",
                "skipped": "Skipped.",
                "failed": "Failed.",
            }.get(status, status)
        )
        if detail:
            self.log.appendPlainText(detail)
