"""The guard card's lines of what each tweak did: one tweak a line, a line that wraps goes on
indented under its own start, and the next tweak's line begins at the margin (walk ux29 at
800 x 600 on X: "Receive packet steering (RPS) with flow steering (RFS): applied — receive
work of" went on "eth1 on CPUs 0, 1, 2, 3" at the margin, as the next tweak's line began, and
the reader could not tell where one tweak ended)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.tuning import AppliedSession, PlannedTweak, TuningPlan, catalog
from sbctune.tuning.model import Change, TweakOutcome
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.line_list import LineList

RPS = "/sys/class/net/eth1/queues/rx-0/rps_cpus"
OUTCOMES = [  # as the lab's pi4-ax88179 answered them (walk ux30)
    TweakOutcome("rps-rfs", "applied", "receive work of eth1 on CPUs 0, 1, 2, 3"),
    TweakOutcome(
        "cpu-governor-performance", "applied", "every core at its top clock (performance)"
    ),
    TweakOutcome("socket-buffers", "applied", "buffers and backlog raised where below the targets"),
]


def _lines(widget: QLabel) -> list[list[float]]:
    """The x of each drawn line, per paragraph, as the label lays its text out."""
    doc = QTextDocument()
    doc.setDefaultFont(widget.font())
    text = QLabel.text(widget)  # what Qt draws
    if widget.textFormat() == Qt.TextFormat.RichText:
        doc.setHtml(text)
    else:
        doc.setPlainText(text)
    doc.setDocumentMargin(0)
    doc.setTextWidth(widget.contentsRect().width())
    doc.documentLayout().documentSize()  # laid out now, not when first drawn
    out = []
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        xs = [layout.lineAt(i).x() + block.blockFormat().leftMargin()
              for i in range(layout.lineCount())]  # fmt: skip
        if xs:
            out.append(xs)
        block = block.next()
    return out


def _hangs(shown: QLabel, tweaks: int) -> None:
    paragraphs = _lines(shown)
    items = [xs for xs in paragraphs if xs[0] == min(p[0] for p in paragraphs[-tweaks:])]
    assert len(items) >= tweaks, paragraphs  # one per tweak
    assert any(len(xs) > 1 for xs in items)  # at 800 x 600 the RPS line wraps
    for xs in items:
        first, *rest = xs
        assert all(x >= first + 8 for x in rest), xs  # its wrapped lines indented under it


@pytest.mark.parametrize("where", ["tune", "results"])
def test_a_wrapped_tweak_line_hangs_under_its_start(
    window: MainWindow, gui_app: QApplication, where: str
) -> None:
    window.resize(800, 581)
    window.go("tune")
    page = window.tune_page
    rps = PlannedTweak(catalog.tweak("rps-rfs"), True, OUTCOMES[0].detail,
                       [Change("file", RPS, "0", "f", RPS)])  # fmt: skip
    window.tuning.planned.emit(TuningPlan("eth1", [rps]))
    applied = AppliedSession("20261201T163000Z-abcdef", time.time() + 90, OUTCOMES,
                             guard_seconds=90)  # fmt: skip
    window.state.model.tuning_applied(applied)
    window.tuning.applied.emit(applied)
    for _ in range(5):
        gui_app.processEvents()
    if where == "tune":
        assert page.outcomes.isVisible()
        assert len(_lines(page.outcomes)) == len(OUTCOMES)  # one paragraph per tweak
        _hangs(page.outcomes, len(OUTCOMES))
        assert page.outcomes.text().splitlines()[0].startswith("Receive packet steering")
        return
    window.go("results")
    for _ in range(5):
        gui_app.processEvents()
    shown = window.results_page.tuning_text
    assert shown.isVisible()
    _hangs(shown, len(OUTCOMES))
    assert "Receive packet steering" in shown.text()


def test_a_list_of_cpus_is_not_broken(gui_app: QApplication) -> None:
    """At 150 % on 1366 x 768 the line broke inside the list: "… on CPUs 0, 1, 2," then a lone
    "3" on the next line. At every width the list stays on one line."""
    shown = LineList()
    line = "Receive packet steering (RPS) with flow steering (RFS): applied — " + OUTCOMES[0].detail
    shown.setText(line)
    for width in range(220, 760, 6):
        shown.setFixedWidth(width)
        doc = QTextDocument()
        doc.setDefaultFont(shown.font())
        doc.setHtml(QLabel.text(shown))
        doc.setDocumentMargin(0)
        doc.setTextWidth(width)
        doc.documentLayout().documentSize()
        block = doc.begin()
        text = block.text()
        first, last = text.index("0,"), len(text) - 1  # the list's first and last numbers
        layout = block.layout()
        assert layout.lineForTextPosition(first).lineNumber() == (
            layout.lineForTextPosition(last).lineNumber()
        ), (width, text)
