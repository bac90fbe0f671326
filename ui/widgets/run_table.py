"""Tables of figures: one run's tests, and before/after."""

from __future__ import annotations

import re
from dataclasses import dataclass
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


# One cell as the table shows it: its text, its tooltip, whether it is a figure (right-aligned)
Cell = tuple[str, str, bool]


def _cell(item: QTableWidgetItem, numeric: bool) -> Cell:
    return item.text(), item.toolTip(), numeric


def _cell_item(cell: Cell) -> QTableWidgetItem:
    text, tip, numeric = cell
    item = _item(text, numeric)
    item.setToolTip(tip)
    return item


@dataclass
class _Line:
    """One measurement compared across the runs: its direction and mode, a cell per run, the
    change between the last and the first (None where there is no change column)."""

    direction: Cell
    mode: Cell
    cells: list[Cell]
    change: Cell | None


def _balanced_cap(widths: list[int], change: int, room: int, least: int, floor: int) -> int:
    """The widest a figure's column may be (`widths`: each column's one-line width) so that the
    figures and the change (`change`: its one-line width, wrapping in what the others leave,
    never under `least`) share `room` with the fewest lines in the tallest row: a figure is
    wrapped only as far as that helps the change, and never under `floor` (a rate and its
    unit). No cap (1 << 20) where everything fits on one line; `floor` where nothing balances."""
    if sum(widths) + change <= room:
        return 1 << 20
    best: tuple[int, int] | None = None
    cap_of_best = floor
    steps = range(floor, max(widths, default=floor) + 1, 4)
    for cap in sorted({*steps, *(w for w in widths if w >= floor)}):  # a column whole, too
        left = room - sum(min(w, cap) for w in widths)
        if left < least:
            continue
        # lines of text in a cell: its one-line width over the cell's, both less the padding
        figure_lines = max(-(-(w - 16) // max(1, min(w, cap) - 16)) for w in widths)
        change_lines = -(-(change - 16) // max(1, left - 16))
        score = (max(figure_lines, change_lines), figure_lines + change_lines)
        if best is None or score <= best:  # ties: the wider figures (one unbroken line more)
            best, cap_of_best = score, cap
    return cap_of_best


class CompareTable(QTableWidget):
    """Before / after (or run 1 / run 2 / …) per direction and mode, with the change; the
    change's words wrap onto more lines in a narrow window rather than being cut. Where the
    runs' columns leave the change too little room, it is said under the table instead, one
    line per row (`change_below`, which the page places right after the table). Where the
    runs' columns cannot fit even with every figure wrapped to its longest word (seven runs at
    800 x 600, walk 25), the table turns (`transposed`): one row per run, one column per
    measurement, the change as the last row, so no run sits behind a sideways scroll bar."""

    def __init__(self) -> None:
        super().__init__(0, 0)
        _setup(self)
        self.setWordWrap(True)
        self._fitted_width = -1
        self._changed = False
        self._runs: list[str] = []
        self._lines: list[_Line] = []
        self.transposed = False
        self._least_as_columns = 0  # the runs-as-columns layout's least width (fit_rows)
        self.change_below = label("", selectable=True)
        self.change_below.setAccessibleName("The change between the last and the first run")
        self.change_below.hide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.width() != self._fitted_width:  # wrapped rows change height with the width
            self._fitted_width = self.width()
            self._fit_rows()

    def _fit_rows(self) -> None:
        if self.transposed and self.viewport().width() >= self._least_as_columns:
            self._fill(transposed=False)  # wide enough again: the runs as columns
        if self.transposed:
            self._fit_transposed()
            return
        # When the figures on one line are wider than the table, no column is wider than a
        # rate, so they wrap rather than push the After column off to the right: with UDP
        # rows ("50.0 Mbit/s, jitter 0.001 ms, loss 0.00 %") it sat behind a scroll bar at
        # 800 x 600. The change takes the rest.
        header = self.horizontalHeader()
        last = self.columnCount() - 1  # the change wraps in what is left
        if self._changed:
            self.setColumnHidden(last, False)
        widths = [max(self.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in range(last)]
        # The change is the column that wraps: the figures are capped only as far as its least
        # room needs, widest first (walk 26: at 1000 px, three runs' UDP figures wrapped onto four
        # lines each, a lone "%" on the last, beside a change column 500 px wide and half empty)
        least = self.fontMetrics().averageCharWidth() * CHANGE_LEAST_CHARS + 16
        change = max(self.sizeHintForColumn(last), header.sectionSizeHint(last))
        least = max(least, header.sectionSizeHint(last))  # its header whole, too
        rate_cap = self.fontMetrics().horizontalAdvance("0000.0 Mbit/s") + 16
        room = self.viewport().width()
        if self._changed:
            cap = _balanced_cap(widths, change, room, least, rate_cap)
        else:
            cap = 1 << 20 if sum(widths) <= room else rate_cap
        if sum(min(w, cap) for w in widths) > self.viewport().width():
            # four runs and more: a figure's unit, "not measured"'s second word, on a line of
            # its own rather than the last run behind a scroll bar (walk 24, 800 x 600)
            cap = max(self._longest_word(c) for c in range(last)) + 16
            least = sum(min(w, cap) for w in widths)
            if least > self.viewport().width() and len(self._runs) > 2:
                # seven runs: even so the last ones sat behind a scroll bar (walk 25)
                self._least_as_columns = least
                self._fill(transposed=True)
                self._fit_transposed()
                return
        header.setMaximumSectionSize(cap)
        room = self.viewport().width() - sum(min(w, cap) for w in widths)
        below = self._changed and room < least
        if self._changed:
            self.setColumnHidden(last, below)
        # the change said below: the last run's column is no longer stretched to the edge, where
        # a width between "802.0 Mbit/" and "802.0 Mbit/s" broke the unit after its slash
        # (walk 25: seven runs at 150 % on 1366 x 768)
        header.setStretchLastSection(not below)
        self.change_below.setText(self._change_lines() if below else "")
        self.change_below.setVisible(below)
        self.resizeRowsToContents()
        _fit_height(self, refit_on_resize=True)

    def _fit_transposed(self) -> None:
        """Runs as rows: each measurement's column as wide as its longest word at least, the
        figures wrapping between number and unit; the change is the last row, not below."""
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for c in range(1, self.columnCount()):  # the measurements share what the runs leave
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch)
        # no narrower than the widest unbreakable run of text ("+66.0 Mbit/s": a figure and
        # its unit are joined by a no-break space), or a cell is cut short
        tokens = [
            token
            for r in range(self.rowCount())
            for c in range(1, self.columnCount())
            if (item := self.item(r, c)) is not None
            for token in item.text().replace("\n", " ").split(" ")
        ]
        widest = max((self.fontMetrics().horizontalAdvance(t) for t in tokens), default=0)
        header.setMinimumSectionSize(widest + 16)
        self.change_below.setText("")
        self.change_below.hide()
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

    def _fill(self, *, transposed: bool) -> None:
        """The cells, runs as columns (a row per measurement) or, `transposed`, as rows."""
        self.transposed = transposed
        header = self.horizontalHeader()
        header.setMaximumSectionSize(1 << 20)
        if not transposed:
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            header.setMinimumSectionSize(-1)  # the style's default again
            headers = ["Direction", "Mode", *self._runs]
            if self._changed:
                headers.append(CHANGE_HEADER)
            self.setColumnCount(len(headers))
            self.setHorizontalHeaderLabels(headers)
            for c in range(len(headers)):
                self.setColumnHidden(c, False)
            self.setRowCount(len(self._lines))
            for r, line in enumerate(self._lines):
                cells = [line.direction, line.mode, *line.cells]
                cells += [line.change] if self._changed and line.change else []
                for c, cell in enumerate(cells):
                    self.setItem(r, c, _cell_item(cell))
            return
        self.setColumnCount(1 + len(self._lines))
        self.setRowCount(len(self._runs) + (1 if self._changed else 0))
        run_head = QTableWidgetItem("Run")
        run_head.setToolTip("Each run compared, oldest first")
        self.setHorizontalHeaderItem(0, run_head)
        for c, line in enumerate(self._lines, start=1):
            direction, mode = line.direction[1] or line.direction[0], line.mode[0]
            head = QTableWidgetItem(f"{line.direction[0]}\n{mode}")
            head.setToolTip(f"{direction}, {(line.mode[1] or mode).lower()}")
            self.setHorizontalHeaderItem(c, head)
            self.setColumnHidden(c, False)
        for r, run in enumerate(self._runs):
            self.setItem(r, 0, _item(run))
            for c, line in enumerate(self._lines, start=1):
                self.setItem(r, c, _cell_item(line.cells[r]))
        if self._changed:
            self.setItem(len(self._runs), 0, _item(CHANGE_HEADER))
            for c, line in enumerate(self._lines, start=1):
                if line.change:
                    self.setItem(len(self._runs), c, _cell_item(line.change))

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
        changed = len(columns) >= 2 and with_change
        self._changed = changed
        self._runs = list(columns)
        lines: list[_Line] = []
        for row in rows:
            text = ""
            if changed:
                text = change(row.values[0], row.values[-1], units)
                if row.verdict_text:  # with its 95 % interval (sbctune.compare)
                    text += f": {row.verdict_text}"
            lines.append(_Line(
                _cell(_item(DIRECTION_LABEL[row.direction]), False),
                _cell(_mode_item(row.mode), False),
                [_cell(_item(rate(value, units), True), True) for value in row.values],
                _cell(_change_item(text), True) if changed else None,
            ))  # fmt: skip
        for lat in latency or []:
            lines.append(_Line(
                _cell(_item(lat.label), False),
                _cell(_item("Latency under load"), False),
                [_cell(_item(latency_cell_text(cell), True), True) for cell in lat.cells],
                _cell(_change_item(latency_change_text(lat.cells[-1])), True) if changed else None,
            ))  # fmt: skip
        for u in udp or []:
            lines.append(_Line(
                _cell(_item(u.label), False),
                _cell(_item(udp_mode_text(u)), False),
                [_cell(_item(udp_cell_text(cell, u), True), True) for cell in u.cells],
                _cell(_item(udp_change_text(u.cells[-1], u), True), True) if changed else None,
            ))  # fmt: skip
        self._lines = lines
        self._fill(transposed=False)
        self._fit_rows()
