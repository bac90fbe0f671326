"""A widget pinned under a scroll area's view, outside what scrolls: when it appears the view
gets shorter from the bottom and nothing in it moves (walk 14, problem 8: at 150 % the Connect
page scrolled ~80 px to show its error, and a click aimed at "Host or IP" landed in "User")."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtWidgets import QLayout, QScrollArea, QVBoxLayout, QWidget

MARGIN = 8


class PinnedFooter(QObject):
    def __init__(self, area: QScrollArea, footer: QWidget) -> None:
        super().__init__(area)
        self._area = area
        self._footer = footer
        # The page's own bottom margin, given back while the footer shows (see `place`).
        inner = area.widget()
        inner_layout = inner.layout() if inner is not None else None
        self._bottom = inner_layout.contentsMargins().bottom() if inner_layout is not None else 0
        footer.setParent(area)
        area.installEventFilter(self)
        # The view too: the area's own resize comes before its view takes the new width (walk
        # 18: an error shown wide kept that width when the window shrank, its hint cut off).
        area.viewport().installEventFilter(self)
        footer.installEventFilter(self)
        self.place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kinds = (QEvent.Type.Show, QEvent.Type.Hide, QEvent.Type.Resize,
                 QEvent.Type.LayoutRequest)  # fmt: skip
        if event.type() in kinds:
            self.place()
        return False

    def place(self) -> None:
        area, footer = self._area, self._footer
        inner = area.widget()
        inner_layout = inner.layout() if inner is not None else None
        if inner_layout is not None:
            # Under the page's last card the footer's own gap is enough: the page's bottom
            # margin besides it was what made the view scroll (ux30: at 800 x 600 a refused
            # connection's error gave the Connect page a scroll bar for 7 px).
            page_margins = inner_layout.contentsMargins()
            bottom = self._bottom if footer.isHidden() else 0
            if page_margins.bottom() != bottom:
                page_margins.setBottom(bottom)
                inner_layout.setContentsMargins(page_margins)
        if footer.isHidden():
            area.setViewportMargins(0, 0, 0, 0)
            return
        # Lined up with the page's cards (its content's margins), clear of the scroll bar.
        margins = inner_layout.contentsMargins() if inner_layout is not None else None
        left = margins.left() if margins is not None else MARGIN
        right = margins.right() if margins is not None else MARGIN
        width = max(0, area.viewport().width() - left - right)
        layout = footer.layout()
        height = (layout.totalHeightForWidth(width) if layout is not None
                  and layout.hasHeightForWidth() else footer.sizeHint().height())  # fmt: skip
        height = min(height, area.height() // 2)
        top = area.height() - height - MARGIN
        geometry = QRect(left, top, width, height)
        if footer.geometry() != geometry:  # (a resize comes back here as an event)
            footer.setGeometry(geometry)
        if layout is not None and layout.geometry() != footer.rect():
            # A resize while it was being shown left its layout at the old size (seen on X:
            # the labels wrapped at a quarter of the panel's width, the hint cut off).
            layout.setGeometry(footer.rect())
        area.setViewportMargins(0, 0, 0, height + 2 * MARGIN)
        footer.raise_()


def stacked(top: QLayout, below: QWidget) -> QWidget:
    """A footer of a row (e.g. Connect / Cancel) and a widget that comes and goes (an error):
    the row is always in view at the bottom, the widget appears above it. The footer grows
    upwards from the window's bottom, so the row never moves (walk19: at 800x600 a longer
    error, placed under the row, pushed Connect up ~28 px) and the error never covers it."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(below)
    layout.addLayout(top)
    return box
