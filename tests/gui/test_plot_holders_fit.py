"""Each plot of the measuring pages is as tall as the place held for it before it is made (the
plots are made on first show, ui/widgets/lazy.py): a taller plot in a shorter place lost its
bottom, the time axis and the CPU chart's core names (s13 walk, once the legends took a strip
of their own)."""

from __future__ import annotations

from typing import cast

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.lazy import Lazy


@pytest.mark.parametrize("page_name", ["baseline_page", "again_page"])
def test_every_plot_fits_its_place(
    window: MainWindow, gui_app: QApplication, page_name: str
) -> None:
    page = getattr(window, page_name)
    for name in ("throughput", "latency", "cpu"):
        holder = cast(Lazy, getattr(page, name))
        assert isinstance(holder, Lazy)
        plot = holder.real()
        gui_app.processEvents()
        assert plot.minimumHeight() == plot.maximumHeight()  # a plot of fixed height
        assert holder.height() == holder.maximumHeight() == plot.height(), name
