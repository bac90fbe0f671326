"""What every page shares: a scrollable body with a heading, and a hook when it is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import ProblemPanel, page_header

if TYPE_CHECKING:  # the Connect page is made before the core is imported (issue 22)
    from sbctune.workflow import Problem


class Page(QScrollArea):
    """A page of the main window; `content` is the layout to fill."""

    title = ""
    intro = ""

    def __init__(self) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self.content = QVBoxLayout(inner)
        self.content.setContentsMargins(24, 18, 24, 18)
        self.content.setSpacing(12)
        self.content.addWidget(page_header(self.title, self.intro))
        self.setWidget(inner)

    def shown(self) -> None:
        """Called each time the page becomes the current one."""

    def apply_theme(self, colors: Colors) -> None:
        """Called when the theme changes (plots and badges repaint themselves)."""

    def show_problem(self, problem: Problem) -> None:
        """An error of work started elsewhere (the one-click flow), on this page's problem
        panel if it has one."""
        panel = self.findChild(ProblemPanel)
        if panel is not None:
            panel.show_problem(problem.message, problem.hint)
