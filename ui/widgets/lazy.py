"""A widget made the first time it is shown or used: the plots (pyqtgraph, numpy: about a
third of the app's imports) wait until a page with a plot is opened, so the first window,
the Connect page, comes up without them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from sbctune.ui.theme import Colors
from sbctune.ui.widgets.plot_heights import CHART_HEIGHT

if TYPE_CHECKING:
    from sbctune.ui.widgets.compare_chart import CompareChart


def is_built(widget: object) -> bool:
    """Whether `widget` is a real one (or a Lazy whose real widget exists)."""
    return not isinstance(widget, Lazy) or widget._real is not None


class Lazy(QWidget):
    """Stands in for the widget `build` makes; attributes it does not have itself (a plot's
    methods and fields) are the real widget's, which they build on first use."""

    def __init__(self, build: Callable[[], QWidget], height: int) -> None:
        super().__init__()
        self._build: Callable[[], QWidget] | None = build
        self._real: QWidget | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.setFixedHeight(height)  # the page lays out as it will look

    def real(self) -> QWidget:
        if self._real is None:
            assert self._build is not None
            self._real = self._build()
            self._build = None
            self._layout.addWidget(self._real)
        return self._real

    def showEvent(self, event: QShowEvent) -> None:
        self.real()
        super().showEvent(event)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # set-up of this object itself, before its fields exist
            raise AttributeError(name)
        return getattr(self.real(), name)


def compare_chart(colors: Colors) -> CompareChart:
    """The before/after chart of the Results and History pages, made when first shown."""

    def build() -> QWidget:
        from sbctune.ui.widgets.compare_chart import CompareChart

        return CompareChart(colors)

    return cast("CompareChart", Lazy(build, CHART_HEIGHT))
