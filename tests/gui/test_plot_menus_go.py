"""The s17 walk: pyqtgraph left its plots' context menus behind as parentless QMenus after a
window was closed and deleted, even with the menu disabled (PlotItem's "Plot Options" menu and
its six submenus, per plot). Closing a window leaves no top-level widget of its plots."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QMenu, QVBoxLayout, QWidget

from sbctune.history import History
from sbctune.remote import KnownHosts
from sbctune.ui.app import make_window
from sbctune.ui.widgets.compare_chart import CompareChart
from sbctune.ui.widgets.live_plots import CpuLoadPlot, LatencyPlot, ThroughputPlot
from tests.gui.conftest import forget_last_connection


def _deleted(widget: QWidget) -> None:
    widget.close()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QApplication.processEvents()


def _new_menus(earlier: set[QWidget]) -> list[str]:
    new = [w for w in QApplication.topLevelWidgets() if w not in earlier]
    return [w.title() for w in new if isinstance(w, QMenu)]


def test_every_plot_kind_takes_its_menus_with_it(gui_app: QApplication) -> None:
    from sbctune.ui.theme import ThemeManager

    colors = ThemeManager(gui_app, "light").colors
    earlier = set(QApplication.topLevelWidgets())
    window = QWidget()
    layout = QVBoxLayout(window)
    throughput = ThroughputPlot(colors, "Mbit/s")
    for plot in (throughput, LatencyPlot(colors, throughput), CpuLoadPlot(colors),
                 CompareChart(colors)):  # fmt: skip
        layout.addWidget(plot)
        assert plot.getPlotItem().getViewBox().menu is None  # the menu is off
    window.show()
    QApplication.processEvents()
    _deleted(window)
    assert _new_menus(earlier) == []


def test_a_closed_main_window_leaves_no_menu_behind(
    gui_app: QApplication, drive: Callable[..., Any], tmp_path: Path
) -> None:
    forget_last_connection()  # no keyring read on show (see conftest)
    history = History.open(tmp_path / "history.sqlite3")
    earlier = set(QApplication.topLevelWidgets())
    win = make_window(
        gui_app,
        history=history,
        known_hosts=lambda: KnownHosts(read_from=[], write_to=tmp_path / "kh"),
    )
    win.show()
    for key in ("history", "results", "tune"):  # the pages build their plots when shown
        win.go(key)
        QApplication.processEvents()
    drive(win.runner.shutdown(), timeout=30)
    win._closing = True
    _deleted(win)
    history.close()
    left = [w for w in QApplication.topLevelWidgets() if w not in earlier]
    assert _new_menus(earlier) == [], left
