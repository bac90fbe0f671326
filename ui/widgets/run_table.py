"""Tables of figures: one run's tests, and before/after."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from sbctune.history.records import RunRecord
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL
from sbctune.ui.controllers.results import ResultRow
from sbctune.ui.settings import Units
from sbctune.ui.units import change, rate


def _setup(table: QTableWidget) -> None:
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def _fit_height(table: QTableWidget) -> None:
    height = table.horizontalHeader().height() + 2 * table.frameWidth()
    height += sum(table.rowHeight(r) for r in range(table.rowCount()))
    table.setFixedHeight(height + 2)


def _item(text: str, numeric: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if numeric:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


class RunTable(QTableWidget):
    """One stored run: per direction and mode, mean / min / max / retransmits."""

    HEADERS = ("Direction", "Mode", "Mean", "Min", "Max", "Retransmits", "Complete")

    def __init__(self) -> None:
        super().__init__(0, len(self.HEADERS))
        self.setHorizontalHeaderLabels(list(self.HEADERS))
        _setup(self)

    def show_run(self, run: RunRecord, units: Units) -> None:
        self.setRowCount(len(run.tests))
        for row, test in enumerate(run.tests):
            cells = [
                (DIRECTION_LABEL[test.direction], False),
                (MODE_LABEL[test.mode], False),
                (rate(test.mean_mbps, units), True),
                (rate(test.min_mbps, units), True),
                (rate(test.max_mbps, units), True),
                ("–" if test.retransmits is None else str(test.retransmits), True),
                ("yes" if test.complete else "NO", False),
            ]
            for col, (text, numeric) in enumerate(cells):
                self.setItem(row, col, _item(text, numeric))
        _fit_height(self)


class CompareTable(QTableWidget):
    """Before / after (or run 1 / run 2 / …) per direction and mode, with the change."""

    def __init__(self) -> None:
        super().__init__(0, 0)
        _setup(self)

    def show_rows(self, columns: list[str], rows: list[ResultRow], units: Units) -> None:
        headers = ["Direction", "Mode", *columns]
        if len(columns) >= 2:
            headers.append("Change (last vs first)")
        self.setColumnCount(len(headers))
        self.setHorizontalHeaderLabels(headers)
        self.setRowCount(len(rows))
        for r, row in enumerate(rows):
            self.setItem(r, 0, _item(DIRECTION_LABEL[row.direction]))
            self.setItem(r, 1, _item(MODE_LABEL[row.mode]))
            for c, value in enumerate(row.values):
                self.setItem(r, 2 + c, _item(rate(value, units), True))
            if len(columns) >= 2:
                text = change(row.values[0], row.values[-1], units)
                if row.verdict_text:  # with its 95 % interval (sbctune.compare)
                    text += f": {row.verdict_text}"
                self.setItem(r, 2 + len(columns), _item(text, True))
        _fit_height(self)
