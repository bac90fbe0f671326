"""Layouts settle before the window paints.

A layout that grows posts a LayoutRequest to its parent, which lays itself out on the next
turn of the event loop and posts one to its own parent, and so on up to the page's scroll
area, which only then makes its content widget tall enough: one turn per level of nesting
(a table in a card in a page: three). A paint already asked for (the page shown, a text set)
came first, so the page was painted with its content squeezed into the old height, each
fixed-height widget (a table, a chart) over the next one (walk 27: Results at 800 x 600 right
after "measure again", the chart over the table and its caption over the chart). Before the
window paints, the layout requests waiting are handled, those they post too, so a paint
shows the page as laid out for what it now holds: every page, however deep its nesting."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject

# Levels a request climbs, at most: widgets with a layout inside one another (7 at the
# deepest, every page filled with the sample Pi's data, session 27), the scroll area's
# viewport, the window; with room to spare: a call with none waiting returns at once.
_DEEPEST = 12


class LayoutBeforePaint(QObject):
    """Installed on a top-level window: its paints (UpdateRequest) wait for the layouts."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.UpdateRequest:
            # A call handles the requests waiting, not those they post (the next level up):
            # one call per level, as deep as a page's nesting goes.
            for _ in range(_DEEPEST):
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        return False
