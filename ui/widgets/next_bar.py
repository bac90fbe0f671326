"""The bar under every page: the path's "Next: ..." button, or, while Tune & Measure runs,
its one overall progress bar with the time left."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from sbctune.ui.controllers.wizard import NextAction
from sbctune.ui.widgets.common import label


class NextBar(QWidget):
    go = Signal(str)  # the page key of the next step
    cancel = Signal()  # Tune & Measure's Cancel, whatever step it is at (walk19)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("nextBar")
        row = QHBoxLayout(self)
        row.setContentsMargins(24, 6, 24, 10)
        self.flow_text = label("", name="muted", wrap=True)
        self.flow_text.setAccessibleName("Tune & Measure: time left")
        self.flow_progress = QProgressBar()
        self.flow_progress.setRange(0, 1000)
        self.flow_progress.setTextVisible(False)
        self.flow_progress.setAccessibleName("Tune & Measure: overall progress")
        self.next_button = QPushButton()
        self.next_button.setObjectName("primary")
        self.next_button.setAutoDefault(True)  # Enter presses it when focused
        self.next_button.clicked.connect(self._clicked)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setAccessibleName("Cancel Tune & Measure")
        self.cancel_button.setToolTip("Stop Tune & Measure: what it applied is put back")
        self.cancel_button.clicked.connect(self._cancel)
        row.addWidget(self.flow_text, 2)
        row.addWidget(self.flow_progress, 1)
        row.addWidget(self.cancel_button, 0)
        row.addStretch(0)
        row.addWidget(self.next_button, 0, Qt.AlignmentFlag.AlignRight)
        self._action: NextAction | None = None
        self.show_next(None)

    def _clicked(self) -> None:
        if self._action is not None:
            self.go.emit(self._action.page)

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)  # once: the flow puts back what it applied
        self.cancel.emit()

    def show_next(self, action: NextAction | None) -> bool:
        """Offer `action`; True when it is a new offer the caller may focus."""
        new = action is not None and action != self._action and action.focus
        self._action = action
        self.flow_text.hide()
        self.flow_progress.hide()
        self.cancel_button.hide()
        self.cancel_button.setEnabled(True)  # for the next flow
        if action is not None:
            self.next_button.setText("&" + action.text)  # Alt+N: "Next"
            self.next_button.setAccessibleName(action.text)
        self.next_button.setVisible(action is not None)
        self.setVisible(action is not None)
        return new

    def show_flow(self, fraction: float, text: str) -> None:
        self._action = None
        self.next_button.hide()
        self.flow_text.setText(text)
        self.flow_progress.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
        self.flow_text.show()
        self.flow_progress.show()
        self.cancel_button.show()
        self.show()
