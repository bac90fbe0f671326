"""Tables of figures: one run's tests, and before/after."""

from __future__ import annotations

import re
from typing import ClassVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
)

from sbctune.compare.latency import LatencyRow
from sbctune.compare.latency import cell_text as latency_cell_text
from sbctune.compare.latency import change_text as latency_change_text
from sbctune.compare.udp import UdpRow
from sbctune.compare.udp import cell_text as udp_cell_text
from sbctune.compare.udp import change_text as udp_change_text
from sbctune.compare.udp import mode_text as udp_mode_text
from sbctune.history.records import RunRecord, UdpRecord
from sbctune.measure.plans import DIRECTION_LABEL
from sbctune.ui.controllers.results import ResultRow
from sbctune.ui.mode_words import mode_term, mode_words
from sbctune.ui.settings import Units
from sbctune.ui.units import change, rate
from sbctune.ui.widgets.common import label


def _setup(table: QTableWidget) -> None:
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def _fit_height(table: QTableWidget, *, refit_on_resize: bool = False) -> None:
    height = table.horizontalHeader().height() + 2 * table.frameWidth()
    height += sum(table.rowHeight(r) for r in range(table.rowCount()))
    # Room for the horizontal scroll bar a narrow window shows (the UDP column is wide):
    # without it the bar covers the last row. A table fitted again whenever its width changes
    # gets the room only while the bar shows: else it is an empty stripe under the table
    # (seen on a real X server at 800 x 600 and at 1366 x 768, 150 %).
    wider = table.horizontalHeader().length() > table.width() - 2 * table.frameWidth()
    if wider or not refit_on_resize:
        height += table.horizontalScrollBar().sizeHint().height()
    table.setFixedHeight(height + 2)


def _item(text: str, numeric: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setToolTip(text)  # a narrow window elides what does not fit: it is all here
    if numeric:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


# A figure and its unit ("13.2 %", "111 Mbit/s", "0.8 ms"): joined by a no-break space, so the
# wrapping change column breaks between figures, never inside one (s11 walk, 800 x 600).
_FIGURE_UNIT = re.compile(r"(\d) (?=%|[kMG]bit/s|[kMG]B/s|ms\b)")


def _change_item(text: str) -> QTableWidgetItem:
    item = _item(_FIGURE_UNIT.sub("\\1\u00a0", text), True)
    item.setToolTip(text)
    return item


def _mode_item(mode: str) -> QTableWidgetItem:
    """ "One way" on screen; the precise term ("half duplex") in its tooltip."""
    item = _item(mode_words(mode))
    item.setToolTip(f"{mode_words(mode)} ({mode_term(mode)})" if mode_term(mode) else "")
    return item


class RunTable(QTableWidget):
    """One stored run: per direction and mode, mean / min / max / retransmits; then its UDP
    tests (`measure --udp`): the rate received, jitter, loss and out-of-order datagrams.

    It fits the page at 800 x 600 (the walk of session 11 scrolled sideways to reach
    "Complete"): the unit is in the figures' headers, not in every cell; headers break onto
    two lines; in a narrow window the long words (a mode, the UDP figures) wrap."""

    HEADERS = (
        "Direction", "Mode", "Mean", "Min", "Max", "Retransmits", "UDP jitter · loss", "Complete",
    )  # fmt: skip
    # On screen: short, on two lines where that saves width; the full word in the tooltip.
    _SHOWN: ClassVar[dict[str, str]] = {
        "Retransmits": "Resent",  # walk 14: "Sent again" (of what?); the tooltip says why
        "UDP jitter · loss": "UDP jitter\n· loss",
    }
    _TIPS: ClassVar[dict[str, str]] = {
        "Retransmits": (
            "Packets resent (TCP retransmits): sent again because they were lost or late on "
            "the way. A few are normal; many mean a congested or faulty link."
        ),
        "Complete": "Whether the test ran its whole time",
    }

    def __init__(self) -> None:
        super().__init__(0, len(self.HEADERS))
        _setup(self)
        # A stretched last column kept a width it once had: "Complete" then overran a narrow page
        self.horizontalHeader().setStretchLastSection(False)
        self.setWordWrap(True)
        self._label_columns("Mbit/s")
        self._fitted_width = -1

    def _label_columns(self, units: Units) -> None:
        for col, name in enumerate(self.HEADERS):
            shown = self._SHOWN.get(name, name)
            if name in ("Mean", "Min", "Max"):
                shown = f"{name}\n{units}"
            item = QTableWidgetItem(shown)
            item.setToolTip(self._TIPS.get(name, shown.replace("\n", " ")))
            self.setHorizontalHeaderItem(col, item)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.width() != self._fitted_width:  # wrapped rows change height with the width
            self._fitted_width = self.width()
            self._fit()

    def _fit(self) -> None:
        """Wide enough: every column on one line. Narrower: the mode and the UDP figures take
        only their longest word's width and wrap onto more lines, so "Complete" stays in view."""
        header = self.horizontalHeader()
        wrapping = (self.HEADERS.index("Mode"), self.HEADERS.index("UDP jitter · loss"))
        for col in wrapping:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        shown = [c for c in range(self.columnCount()) if not self.isColumnHidden(c)]
        natural = sum(max(self.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in shown)
        if natural > self.viewport().width():
            for col in wrapping:
                header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
                least = self.fontMetrics().horizontalAdvance("Both ways,") if col == 1 else 0
                header.resizeSection(col, max(least, self._longest_word(col)) + 16)
        self.resizeRowsToContents()
        _fit_height(self, refit_on_resize=True)

    def _longest_word(self, col: int) -> int:
        """The width of the widest word in the column (cells and header): no narrower, or a
        word would be cut."""
        items = [self.item(r, col) for r in range(self.rowCount())]
        texts = [item.text() for item in items if item is not None]
        head = self.horizontalHeaderItem(col)
        words = " ".join([*texts, head.text() if head else ""]).split()
        return max((self.fontMetrics().horizontalAdvance(w) for w in words), default=0)

    def show_run(self, run: RunRecord, units: Units) -> None:
        self.setRowCount(len(run.tests) + len(run.udp))
        self._label_columns(units)
        rows: list[list[tuple[str, bool]]] = []
        for test in run.tests:
            rows.append([
                (DIRECTION_LABEL[test.direction], False),
                (mode_words(test.mode), False),
                (rate(test.mean_mbps, units, with_unit=False), True),
                (rate(test.min_mbps, units, with_unit=False), True),
                (rate(test.max_mbps, units, with_unit=False), True),
                ("–" if test.retransmits is None else str(test.retransmits), True),
                ("", False),
                ("yes" if test.complete else "NO", False),
            ])  # fmt: skip
        rows.extend(_udp_cells(u, units) for u in run.udp)
        for row, cells in enumerate(rows):
            for col, (text, numeric) in enumerate(cells):
                self.setItem(row, col, _item(text, numeric))
        for row, test in enumerate(run.tests):  # its precise term in the tooltip
            self.setItem(row, 1, _mode_item(test.mode))
        # An empty UDP column only pushed the table past the page: at 800x600 it hid behind a
        # horizontal scroll bar after every TCP-only run (s10 walk).
        self.setColumnHidden(self.HEADERS.index("UDP jitter · loss"), not run.udp)
        self._fit()


def _udp_cells(u: UdpRecord, units: Units) -> list[tuple[str, bool]]:
    figures = "–"
    if u.jitter_ms is not None and u.lost_percent is not None:
        figures = f"{u.jitter_ms:.3f} ms · {u.lost_percent:.2f} % lost ({u.lost}/{u.packets})"
        if u.out_of_order:
            figures += f" · {u.out_of_order} out of order"
    target = f"UDP at {u.target_mbps:g} Mbit/s" if u.target_mbps else "UDP"
    return [
        (DIRECTION_LABEL[u.direction], False),
        (target, False),
        (rate(u.receiver_mbps, units, with_unit=False), True),
        ("–", True),
        ("–", True),
        ("–", True),
        (figures, False),
        ("yes" if u.complete else "NO", False),
    ]


CHANGE_HEADER = "Change (last vs first)"
# The change column's least readable width, in average characters: narrower, its words stood
# one to a line in a 26-pixel column (walk 24: History at 800 x 600 with four runs chosen).
CHANGE_LEAST_CHARS = 18


class CompareTable(QTableWidget):
    """Before / after (or run 1 / run 2 / …) per direction and mode, with the change; the
    change's words wrap onto more lines in a narrow window rather than being cut. Where the
    runs' columns leave the change too little room, it is said under the table instead, one
    line per row (`change_below`, which the page places right after the table)."""

    def __init__(self) -> None:
        super().__init__(0, 0)
        _setup(self)
        self.setWordWrap(True)
        self._fitted_width = -1
        self._changed = False
        self.change_below = label("", selectable=True)
        self.change_below.setAccessibleName("The change between the last and the first run")
        self.change_below.hide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.width() != self._fitted_width:  # wrapped rows change height with the width
            self._fitted_width = self.width()
            self._fit_rows()

    def _fit_rows(self) -> None:
        # When the figures on one line are wider than the table, no column is wider than a
        # rate, so they wrap rather than push the After column off to the right: with UDP
        # rows ("50.0 Mbit/s, jitter 0.001 ms, loss 0.00 %") it sat behind a scroll bar at
        # 800 x 600. The change takes the rest.
        header = self.horizontalHeader()
        last = self.columnCount() - 1  # the change wraps in what is left
        if self._changed:
            self.setColumnHidden(last, False)
        widths = [max(self.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in range(last)]
        natural = header.sectionSizeHint(last) + sum(widths)
        narrow = natural > self.viewport().width()
        cap = self.fontMetrics().horizontalAdvance("0000.0 Mbit/s") + 16 if narrow else 1 << 20
        if sum(min(w, cap) for w in widths) > self.viewport().width():
            # four runs and more: a figure's unit, "not measured"'s second word, on a line of
            # its own rather than the last run behind a scroll bar (walk 24, 800 x 600)
            cap = max(self._longest_word(c) for c in range(last)) + 16
        header.setMaximumSectionSize(cap)
        room = self.viewport().width() - sum(min(w, cap) for w in widths)
        least = self.fontMetrics().averageCharWidth() * CHANGE_LEAST_CHARS + 16
        below = self._changed and room < least
        if self._changed:
            self.setColumnHidden(last, below)
        self.change_below.setText(self._change_lines() if below else "")
        self.change_below.setVisible(below)
        self.resizeRowsToContents()
        _fit_height(self, refit_on_resize=True)

    def _longest_word(self, col: int) -> int:
        """The widest word of the column's cells and header (a cell never cuts a word)."""
        items = [self.item(r, col) for r in range(self.rowCount())]
        head = self.horizontalHeaderItem(col)
        texts = [item.text() for item in (*items, head) if item is not None]
        words = " ".join(texts).split()
        return max((self.fontMetrics().horizontalAdvance(w) for w in words), default=0)

    def _change_lines(self) -> str:
        """The change column as lines: "Pi → PC, one way: +9.8 Mbit/s (+1.0 %): …"."""
        last = self.columnCount() - 1
        lines = [f"{CHANGE_HEADER}:"]
        for r in range(self.rowCount()):
            cells = [self.item(r, c) for c in (0, 1, last)]
            if all(cell is not None for cell in cells):
                direction, mode, said = (cell.toolTip() or cell.text() for cell in cells if cell)
                lines.append(f"{direction}, {mode.split(' (')[0].lower()}: {said}")
        return "\n".join(lines)

    def show_rows(
        self,
        columns: list[str],
        rows: list[ResultRow],
        units: Units,
        latency: list[LatencyRow] | None = None,
        udp: list[UdpRow] | None = None,
        *,
        with_change: bool = True,
    ) -> None:
        """`latency`: the runs' added latency under load (sbctune.compare.latency), after the
        throughput rows; `udp`: their UDP tests (sbctune.compare.udp), last; `with_change`:
        False for runs of different NICs (sbctune.compare.across_nics: no change between)."""
        headers = ["Direction", "Mode", *columns]
        changed = len(columns) >= 2 and with_change
        self._changed = changed
        if changed:
            headers.append(CHANGE_HEADER)
        self.setColumnCount(len(headers))
        self.setHorizontalHeaderLabels(headers)
        self.setRowCount(len(rows) + len(latency or []) + len(udp or []))
        for r, lat in enumerate(latency or [], start=len(rows)):
            self.setItem(r, 0, _item(lat.label))
            self.setItem(r, 1, _item("Latency under load"))
            for c, cell in enumerate(lat.cells):
                self.setItem(r, 2 + c, _item(latency_cell_text(cell), True))
            if changed:
                self.setItem(r, 2 + len(columns), _change_item(latency_change_text(lat.cells[-1])))
        for r, u in enumerate(udp or [], start=len(rows) + len(latency or [])):
            self.setItem(r, 0, _item(u.label))
            self.setItem(r, 1, _item(udp_mode_text(u)))
            for c, udp_cell in enumerate(u.cells):
                self.setItem(r, 2 + c, _item(udp_cell_text(udp_cell, u), True))
            if changed:
                self.setItem(r, 2 + len(columns), _item(udp_change_text(u.cells[-1], u), True))
        for r, row in enumerate(rows):
            self.setItem(r, 0, _item(DIRECTION_LABEL[row.direction]))
            self.setItem(r, 1, _mode_item(row.mode))
            for c, value in enumerate(row.values):
                self.setItem(r, 2 + c, _item(rate(value, units), True))
            if changed:
                text = change(row.values[0], row.values[-1], units)
                if row.verdict_text:  # with its 95 % interval (sbctune.compare)
                    text += f": {row.verdict_text}"
                self.setItem(r, 2 + len(columns), _change_item(text))
        self._fit_rows()
