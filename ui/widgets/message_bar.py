"""The window's status bar: a temporary message that does not fit is cut with "…" (its whole
text as the tooltip) instead of being clipped under the permanent texts on the right, and the
widgets marked as yielding (the connection line) shrink to their shortest while a message shows
(walk 14: at 800 x 600 the refusal "A measurement is running…" was cut mid-word and ran into
"Connected: …" and the guard's countdown). The last text on the right keeps a gap from the
window's edge when no size grip stands there (s30 walk, maximised at 800 x 600: "…unless
kept" touched the edge)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption, QWidget

# Qt's own "no maximum" (QWIDGETSIZE_MAX)
NO_MAXIMUM = 16777215
# The room right of the last text when the window shows no size grip: about the gap Qt's
# layout leaves before the grip (its spacing and 1 px), so both cases end alike.
EDGE_ROOM = 8
# Qt's size grip hides itself in these states (QSizeGrip's event filter, Linux and Windows)
_NO_GRIP = Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen


class MessageBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self._yielding: list[QWidget] = []
        self.messageChanged.connect(self._message_changed)
        self._watched: QWidget | None = None

    def add_permanent(self, widget: QWidget, *, yielding: bool = False) -> None:
        """A text on the right; `yielding`: it shrinks to its shortest while a message shows."""
        self.addPermanentWidget(widget)
        self._permanent.append(widget)
        if yielding:
            self._yielding.append(widget)

    def message_rect(self) -> QRect:
        """Where the message is drawn: from the left edge to the first permanent text."""
        right = self.width() - 12
        for widget in self._permanent:
            if widget.isVisible():
                right = min(right, widget.x() - 2)
        return QRect(6, 0, max(0, right - 6), self.height())

    def shown_message(self) -> str:
        """What the user reads: the message, or its start with "…" when it does not fit."""
        return self.fontMetrics().elidedText(
            self.currentMessage(), Qt.TextElideMode.ElideRight, self.message_rect().width()
        )

    def _message_changed(self, message: str) -> None:
        # Only when the message would not fit beside them whole (a wide window keeps both).
        others = sum(w.sizeHint().width() + 8 for w in self._permanent if not w.isHidden())
        fits = self.fontMetrics().horizontalAdvance(message) + 24 + others <= self.width()
        squeeze = bool(message) and not fits
        for widget in self._yielding:
            widget.setMaximumWidth(widget.minimumSizeHint().width() if squeeze else NO_MAXIMUM)
        self._sync_tooltip()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._keep_off_edge()
        self._sync_tooltip()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        window = self.window()
        if window is not self._watched:  # maximised or restored: the grip goes or comes
            window.installEventFilter(self)
            self._watched = window
        self._keep_off_edge()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._watched and event.type() == QEvent.Type.WindowStateChange:
            self._keep_off_edge()
        return super().eventFilter(watched, event)

    def _keep_off_edge(self) -> None:
        grip = self.isSizeGripEnabled() and not self.window().windowState() & _NO_GRIP
        room = 0 if grip else EDGE_ROOM
        if self.contentsMargins().right() != room:
            self.setContentsMargins(0, 0, room, 0)

    def _sync_tooltip(self) -> None:
        message = self.currentMessage()
        self.setToolTip(message if message and self.shown_message() != message else "")

    def paintEvent(self, event: QPaintEvent) -> None:
        """Qt's own drawing (the panel, a frame round each visible text), with the message
        elided to its room rather than clipped."""
        message = self.currentMessage()
        if not message:
            super().paintEvent(event)
            return
        self._sync_tooltip()
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        for widget in self._permanent:
            if widget.isVisible():
                frame = QStyleOption()
                frame.rect = widget.geometry().adjusted(-2, -1, 2, 1)
                frame.palette = self.palette()
                self.style().drawPrimitive(
                    QStyle.PrimitiveElement.PE_FrameStatusBarItem, frame, painter, widget
                )
        painter.setPen(self.palette().windowText().color())
        flags = int(Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter
                    | Qt.TextFlag.TextSingleLine)  # fmt: skip
        painter.drawText(self.message_rect(), flags, self.shown_message())
        painter.end()
