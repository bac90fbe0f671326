"""The plots' context menus: off, and gone with their plot.

pyqtgraph 0.14's PlotItem builds its "Plot Options" menu (``ctrlMenu``, with six submenus) as
a QMenu without a parent and keeps it even with the menu disabled: every plot left those seven
top-level widgets behind after its window was deleted (the s17 walk counted them per window).
The ViewBox's own menu (ViewBoxMenu, also parentless) is dropped by ``setMenuEnabled(False)``
(ViewBox._applyMenuEnabled), so only the PlotItem's needs a parent.
"""

from __future__ import annotations

import pyqtgraph as pg


def menus_off(plot: pg.PlotWidget) -> None:
    """No context menu on `plot`; the menus pyqtgraph made for it are deleted with it."""
    item = plot.getPlotItem()
    item.setMenuEnabled(False)
    for menu in (item.ctrlMenu, item.getViewBox().menu):
        if menu is not None and menu.parent() is None:
            menu.setParent(plot, menu.windowFlags())  # still a popup, never shown
