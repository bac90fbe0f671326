"""PNG export: the core's SVG charts rasterised with QtSvg (the core cannot import Qt).

`register()` adds the "png" format to sbctune.export's registry; Qt is imported only when a
PNG is actually written, so registering costs nothing at CLI start-up.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.export import register as register_exporter

if TYPE_CHECKING:
    from sbctune.export import ReportData

SCALE = 2  # device pixels per SVG unit: sharp on high-DPI screens and forum posts


def svg_to_png(svg: str, path: Path, scale: int = SCALE) -> Path:
    # Rendering text needs a QGuiApplication; with no display (CLI, SSH) the offscreen platform.
    if "QT_QPA_PLATFORM" not in os.environ and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.name == "nt"
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    try:
        from PySide6.QtCore import QByteArray, QRectF
        from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter
        from PySide6.QtSvg import QSvgRenderer
    except ImportError as exc:
        raise UserError(
            f"PNG export needs the GUI libraries (PySide6 with QtSvg): {exc}.",
            "Install sbctune with its desktop app, or export --format svg or html.",
        ) from None
    _app = QGuiApplication.instance() or QGuiApplication([])  # kept alive while drawing
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    if not renderer.isValid():
        raise UserError("The chart could not be drawn (invalid SVG).", "Please report this.")
    size = renderer.defaultSize()
    image = QImage(size.width() * scale, size.height() * scale, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    renderer.render(painter, QRectF(0, 0, image.width(), image.height()))
    painter.end()
    if not image.save(str(path), "PNG"):  # type: ignore[call-overload]  # stubs say bytes; Qt wants str
        raise UserError(f"Could not write {path}.", "Check that the folder is writable.")
    return path


def export_png(data: ReportData, path: Path) -> Path:
    from sbctune.compare import combined_svg
    from sbctune.export.svg_export import charts

    return svg_to_png(combined_svg(charts(data)), path)


def register() -> None:
    register_exporter("png", export_png)
