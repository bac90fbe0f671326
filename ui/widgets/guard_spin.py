"""The auto-revert guard's length: a spin box whose range is said, on its tooltip and, when a
value outside it is typed, in a note beside it (walk 14, problem 9d: "20" typed and left kept
90 s with no word; the 30 s minimum was found only by pressing Down)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QSpinBox, QWidget

SHORTEST_S = 30
LONGEST_S = 600


class GuardSpin(QSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(SHORTEST_S, LONGEST_S)
        self.setSuffix(" s guard")
        self.setToolTip(
            f"How long the Pi keeps new settings on trial before it puts them back by itself, "
            f"unless you keep them: from {SHORTEST_S} s to {LONGEST_S} s."
        )
        # Beside the box (the page adds it): what happened to a value it could not take.
        self.note = QLabel("")
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        self.note.hide()
        self._refused = ""
        self.editingFinished.connect(self._say_refused)
        self.valueChanged.connect(lambda _value: self.clear_note())
        # Typing again makes the note stale, even the value it stays at (walk 15: "90" typed
        # after "20" left "20 s was not taken" beside 90 s, and after Apply).
        self.lineEdit().textEdited.connect(lambda _text: self.clear_note())

    def fixup(self, text: str) -> str:
        """Qt calls this for a typed value it cannot take, before it goes back to the last one."""
        self._refused = text.removesuffix(self.suffix()).strip()
        return super().fixup(text)

    def _say_refused(self) -> None:
        refused, self._refused = self._refused, ""
        if not refused:
            self.clear_note()
            return
        self.note.setText(
            f"The guard is {SHORTEST_S} to {LONGEST_S} s: {refused} s was not taken, "
            f"it stays {self.value()} s."
        )
        self.note.show()

    def clear_note(self) -> None:
        self.note.clear()
        self.note.hide()
