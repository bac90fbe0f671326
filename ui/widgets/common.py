"""Small building blocks shared by the pages: cards, badges, headings, the inline error."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from sbctune.ui.theme import Colors, badge_style


def label(text: str = "", *, name: str = "", wrap: bool = True, selectable: bool = False) -> QLabel:
    widget = QLabel(text)
    if name:
        widget.setObjectName(name)
    widget.setWordWrap(wrap)
    widget.setTextFormat(Qt.TextFormat.PlainText)
    if selectable:
        widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return widget


def narrow_combo(combo: QComboBox, chars: int = 18) -> QComboBox:
    """A combo box that may be narrower than its longest item (which it elides), so a long
    plan name cannot push a page wider than an 800-pixel window. The chosen item's whole text
    is its tooltip (a list the user picks from; a field the user types in keeps its own)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    if not combo.isEditable():
        combo.currentTextChanged.connect(combo.setToolTip)
    return combo


def label_reaches(form: QFormLayout, row_widget: QWidget, target: QWidget) -> None:
    """The form label of `row_widget` (a container of several controls) gives its Alt+letter
    focus to `target`: QLabel hands the focus only to a buddy that takes focus itself, so a
    container's focus proxy alone leaves the mnemonic dead."""
    found = form.labelForField(row_widget)
    if isinstance(found, QLabel):
        found.setBuddy(target)


class PassesTheWheel:
    """For a plot whose mouse is off: the wheel over it scrolls the page it sits on (before,
    the plot took the wheel and did nothing with it, so a page stopped scrolling whenever a
    plot came under the pointer)."""

    def wheelEvent(self, event: QWheelEvent) -> None:
        # Handed on explicitly: Qt 6 does not pass an ignored wheel event up to the parent
        # when the event was sent by the program (only when it came from the window system).
        widget = self.parentWidget()  # type: ignore[attr-defined]
        while widget is not None and not isinstance(widget, QAbstractScrollArea):
            widget = widget.parentWidget()
        if widget is None:
            event.ignore()
            return
        QApplication.sendEvent(widget.viewport(), event)
        event.accept()


class Card(QFrame):
    """A rounded panel with a title; content goes into `body` (a QVBoxLayout)."""

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(14, 12, 14, 12)
        outer.setSpacing(6)
        self.header = QHBoxLayout()
        self.title = label(title, name="cardTitle")
        self.header.addWidget(self.title, 1)
        outer.addLayout(self.header)
        self.body = QVBoxLayout()
        self.body.setSpacing(4)
        outer.addLayout(self.body)


class Badge(QLabel):
    """A coloured pill ("low risk", "reboot", "warning")."""

    def __init__(self, text: str, color_key: str, colors: Colors) -> None:
        super().__init__(text)
        self.setObjectName("badge")
        self._key = color_key
        self.restyle(colors)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def restyle(self, colors: Colors) -> None:
        self.setStyleSheet(badge_style(getattr(colors, self._key), colors.dark))


class FactGrid(QWidget):
    """Two columns of "name: value" facts, values selectable (people paste them in forums)."""

    def __init__(self, facts: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from PySide6.QtWidgets import QGridLayout

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(3)
        for row, (name, value) in enumerate(facts):
            key = label(name, name="muted", wrap=False)
            grid.addWidget(key, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(label(value, selectable=True), row, 1)
        grid.setColumnStretch(1, 1)


class ProblemPanel(QFrame):
    """The inline error: what went wrong (bold) and what to do (the core's hint)."""

    def __init__(self, parent: QWidget | None = None, *, scrolls: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self._scrolls = scrolls  # False: pinned where it is always seen (pinned_footer)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        self.message = label(name="errorText", selectable=True)
        self.hint = label(name="hintText", selectable=True)
        layout.addWidget(self.message)
        layout.addWidget(self.hint)
        self.hide()

    def show_problem(self, message: str, hint: str = "") -> None:
        self.message.setText(message)
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))
        self.show()
        if not self._scrolls:
            return
        # In sight, once laid out: at the foot of a page in a small window it was below the
        # fold (seen on X at 1366 x 768, 150 %, after refusing a host key).
        QTimer.singleShot(0, self._into_view)

    def _into_view(self) -> None:
        widget = self.parentWidget()
        while widget is not None and not isinstance(widget, QScrollArea):
            widget = widget.parentWidget()
        if widget is not None and self.isVisible():
            widget.ensureWidgetVisible(self, 0, 10)

    def clear(self) -> None:
        self.message.setText("")
        self.hint.setText("")
        self.hide()


def page_header(title: str, intro: str) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 6)
    layout.addWidget(label(title, name="pageTitle"))
    if intro:
        layout.addWidget(label(intro, name="pageIntro"))
    return box


def clear_layout(layout: QVBoxLayout) -> None:
    """Remove and delete every widget of a layout, hiding them at once (deletion is deferred
    until the event loop runs; a hidden widget cannot be painted over the new ones meanwhile)."""
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.hide()
            widget.setParent(None)
            widget.deleteLater()
