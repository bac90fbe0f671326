"""While a test runs, its throughput plot is seen without scrolling (walk 14, problem 5: at
800 x 600 and at 1366 x 768, 150 %, only the plot's top showed, the measured lines just below
the edge). When the page's viewport is too short for it, what is above the plot gives way:
the page's heading (the sidebar names the step) and the plot card's title are hidden, each
big figure moves up beside its title (one row instead of two), and if that is not enough the
plot gets shorter (down to `SHORTEST`). When the test ends the page is as before."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget

from sbctune.ui.widgets.common import Card
from sbctune.ui.widgets.lazy import Lazy, is_built

SHORTEST = 170  # px: the axes, the legend's strip and a readable band of data
BOTTOM_GAP = 8  # px between the plot and the viewport's bottom edge
COMPACT_FIGURE = "font-size: 14pt; font-weight: 600;"  # the theme's bigFigure is 20 pt


class LiveFit(QObject):
    def __init__(
        self,
        page: QScrollArea,
        *,
        header: QWidget | None,
        figures: list[tuple[Card, QLabel]],
        plot_card: Card,
        plot: QWidget,
        height: int,
    ) -> None:
        super().__init__(page)
        self._page = page
        self._header = header
        self._figures = figures
        self._plot_card = plot_card
        self._plot = plot
        self._height = height
        self._running = False
        self._fitting = False
        self.compact = False
        page.viewport().installEventFilter(self)

    def running(self, running: bool) -> None:
        self._running = running
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self._running:
            self.fit()
        return False

    def fit(self) -> None:
        if self._fitting:
            return
        self._fitting = True
        try:
            self._set_compact(False)
            self._set_height(self._height)
            if self._running and self.room() < self._height:
                self._set_compact(True)
                room = self.room()
                if room < self._height:
                    self._set_height(max(SHORTEST, room))
        finally:
            self._fitting = False

    def room(self) -> int:
        """How tall the plot may be to end inside the viewport with the page at its top."""
        inner = self._page.widget()
        layout = inner.layout() if inner is not None else None
        if inner is None or layout is None:
            return self._height
        layout.activate()
        for card, _big in self._figures:
            card_layout = card.layout()
            if card_layout is not None:
                card_layout.activate()
        plot_layout = self._plot_card.layout()
        if plot_layout is not None:
            plot_layout.activate()
        top = self._plot.mapTo(inner, QPoint(0, 0)).y()
        return self._page.viewport().height() - top - BOTTOM_GAP

    def _set_compact(self, compact: bool) -> None:
        if compact == self.compact:
            return
        self.compact = compact
        if self._header is not None:
            self._header.setVisible(not compact)
        self._plot_card.title.setVisible(not compact)
        for card, big in self._figures:
            (card.body if compact else card.header).removeWidget(big)
            (card.header if compact else card.body).addWidget(big)
            # Beside a wide figure ("warming up…") the whole title wrapped a word a line (seen
            # on X at 800 x 600): the direction alone, on one line, says which it is.
            title = card.title
            if compact:
                title.setProperty("full_title", title.text())
                title.setText(title.text().split(",")[0])
            else:
                title.setText(str(title.property("full_title") or title.text()))
            title.setWordWrap(not compact)
            # Smaller beside its title: at 20 pt two rows of "949.0 Mbit/s" made the page wider
            # than an 800 x 600 window (its Start and time left cut off on X).
            big.setStyleSheet(COMPACT_FIGURE if compact else "")

    def _set_height(self, height: int) -> None:
        if self._plot.height() == height and self._plot.maximumHeight() == height:
            return
        self._plot.setFixedHeight(height)
        if isinstance(self._plot, Lazy) and is_built(self._plot):
            self._plot.real().setFixedHeight(height)
