"""The s11 walk at 150 % on 1366 x 768: after "Compare selected" the page grew a scroll bar,
the History table's "Mean figures" column narrowed, and its cells wrapped inside a unit:
"... 941.1 Mbit/" on one line and "s" on the next. A figure and its unit stay together, at
any column width."""

from __future__ import annotations

from PySide6.QtGui import QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data


def _lines(text: str, font: object, width: float) -> list[str]:
    """How Qt's item view lays the cell out (QCommonStyle: wrap at words, else anywhere)."""
    layout = QTextLayout(text, font)  # type: ignore[call-overload]
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    out = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        out.append(text[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return out


def test_mean_figures_wrap_between_figures_never_inside_one(
    window: MainWindow, gui_app: QApplication
) -> None:
    load_sample_data(window)
    window.go("history")
    gui_app.processEvents()
    table = window.page("history").table  # type: ignore[attr-defined]
    texts = [table.item(r, 5).text() for r in range(table.rowCount())]
    # what the eye reads: the invisible joiners that hold a figure together aside
    assert texts and all("Mbit/s" in t.replace("\u2060", "") for t in texts), texts
    metrics = table.fontMetrics()
    for text in texts:
        for width in range(metrics.horizontalAdvance("PC → Pi one way 000.0 Mbit/s,") + 4,
                           metrics.horizontalAdvance(text) + 2, 7):  # fmt: skip
            lines = [line.replace("\u2060", "").strip()
                     for line in _lines(text, table.font(), width)]  # fmt: skip
            broken = [line for line in lines if line.endswith(("/", "Mbit", "Mbit/"))
                      or line.startswith(("s", "Mbit", "/"))]  # fmt: skip
            assert not broken, (width, lines)
