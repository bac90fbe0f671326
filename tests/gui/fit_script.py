"""Opens the main window with sample data at one size and scale, visits every page, and prints
what does not fit as JSON; saves a screenshot of each page. Run by tests/gui/test_window_fits.py
in its own process: Qt's scale factor must be set before the application exists.

    python tests/gui/fit_script.py WIDTH HEIGHT SCALE SHOTS_DIR
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QScrollArea, QWidget

from sbctune.ui.app import create_app, event_loop, make_window, run_until_done
from sbctune.ui.main_window import EXTRA
from sbctune.ui.selftest import load_sample_data

SLACK = 1  # px: rounding at fractional scales


def _name(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else ""
    return f"{type(widget).__name__} {text[:50]!r}" if text else type(widget).__name__


def problems_of(page: QScrollArea, window: QWidget) -> list[str]:
    found: list[str] = []
    inner = page.widget()
    viewport = page.viewport()
    if inner is None:
        return found
    if inner.width() > viewport.width() + SLACK:
        found.append(f"content {inner.width()} px wide in a {viewport.width()} px viewport")
    if page.horizontalScrollBar().isVisible():
        found.append("a horizontal scrollbar")
    for widget in inner.findChildren(QWidget):
        if not widget.isVisibleTo(window) or widget.width() <= 0:
            continue
        right = widget.mapTo(viewport, widget.rect().topRight()).x()
        if right > viewport.width() + SLACK and widget.parentWidget() is not None:
            parent_right = (
                widget.parentWidget().mapTo(viewport, widget.parentWidget().rect().topRight()).x()
            )
            if parent_right <= viewport.width() + SLACK:  # report the outermost only
                found.append(f"{_name(widget)} ends at {right} px, past {viewport.width()} px")
        if isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                need = widget.heightForWidth(widget.width())
                if need > widget.height() + SLACK:
                    found.append(
                        f"{_name(widget)} needs {need} px of height, has {widget.height()}"
                    )
            elif widget.sizeHint().width() > widget.width() + SLACK:
                found.append(
                    f"{_name(widget)} cut: {widget.sizeHint().width()} > {widget.width()} px"
                )
        if (
            isinstance(widget, QAbstractButton)
            and widget.sizeHint().width() > widget.width() + SLACK
        ):
            found.append(f"{_name(widget)} cut: {widget.sizeHint().width()} > {widget.width()} px")
    return found


def bar_problems(window: QWidget) -> list[str]:
    """The bar under the pages (Next, or the flow's progress): inside the window, uncut."""
    found = []
    for widget in window.findChildren(QWidget, "nextBar"):
        for child in [widget, *widget.findChildren(QWidget)]:
            if not child.isVisibleTo(window):
                continue
            right = child.mapTo(window, child.rect().topRight()).x()
            if right > window.width() + SLACK:
                found.append(f"{_name(child)} ends at {right} px, past {window.width()} px")
            if isinstance(child, QAbstractButton) and child.sizeHint().width() > child.width():
                found.append(f"{_name(child)} cut: {child.sizeHint().width()} > {child.width()}")
    return found


def main() -> int:
    # Before the application exists: Qt reads the scale factor once.
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["QT_SCALE_FACTOR"] = sys.argv[3]
    os.environ["SBCTUNE_DATA_DIR"] = tempfile.mkdtemp(prefix="sbctune-fit-")
    width, height = int(sys.argv[1]), int(sys.argv[2])
    shots = Path(sys.argv[4])
    shots.mkdir(parents=True, exist_ok=True)
    app = create_app()
    window = make_window(app)
    window.settings.udp_enabled = True  # the measuring pages' UDP line must fit too
    load_sample_data(window)
    window.resize(width, height)
    window.show()

    async def visit() -> dict[str, object]:
        result: dict[str, object] = {"window": [window.width(), window.height()], "pages": {}}
        pages: dict[str, list[str]] = {}
        for key in (*window.path, *EXTRA):
            window.go(key)
            for _ in range(4):
                QApplication.processEvents()
                await asyncio.sleep(0.05)
            pages[key] = problems_of(window.page(key), window) + bar_problems(window)
            tag = f"{width}x{height}@{sys.argv[3]}"
            window.grab().save(str(shots / f"fit-{tag}-{key}.png"))
        result["pages"] = pages
        return result

    result = run_until_done(event_loop(app), asyncio.wait_for(visit(), 120))
    print("RESULT " + json.dumps(result), flush=True)
    os._exit(0)  # PySide6 can abort at interpreter shutdown; the result is out


if __name__ == "__main__":
    sys.exit(main())
