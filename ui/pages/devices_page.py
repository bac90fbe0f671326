"""Devices: the Pis sbctune has talked to (from the history); connect again or forget one."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
)

from sbctune.ui.controllers.records import DeviceRecord, RecordsController
from sbctune.ui.pages.base import Page
from sbctune.ui.widgets.common import label


class DevicesPage(Page):
    title = "Devices"
    intro = (
        "The Pis sbctune has connected to. Passwords are not kept here (only in the system "
        "keyring, if you asked)."
    )
    connect_requested = Signal(object)  # DeviceRecord

    def __init__(self, records: RecordsController) -> None:
        super().__init__()
        self._records = records
        self.table = QTableWidget(0, 6)
        self.table.setAccessibleName("Saved devices")
        # Board: two Pis both named "raspberrypi" were told apart by address alone (walk 24)
        self.table.setHorizontalHeaderLabels(
            ["Name", "Board", "Address", "User", "Last seen", "Runs"]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # The board takes what is left and wraps between words: at 800 x 600 the Runs column
        # went behind a scroll bar when the board's name kept one line (walk 24)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.table.setWordWrap(True)
        header.sectionResized.connect(lambda *_: self.table.resizeRowsToContents())
        self.table.setMinimumHeight(240)
        self.table.doubleClicked.connect(lambda _i: self._connect())
        self.content.addWidget(self.table)
        row = QHBoxLayout()
        self.connect_button = QPushButton("&Connect")
        self.connect_button.clicked.connect(self._connect)
        self.forget_button = QPushButton("Forg&et…")
        self.forget_button.clicked.connect(self._forget)
        row.addWidget(self.connect_button)
        row.addWidget(self.forget_button)
        row.addStretch(1)
        self.content.addLayout(row)
        self.empty = label("No device yet: connect to a Pi first.", name="muted")
        self.content.addWidget(self.empty)
        self.content.addStretch(1)
        self.devices: list[DeviceRecord] = []

    def shown(self) -> None:
        self.devices = self._records.devices()
        self.table.setRowCount(len(self.devices))
        for r, device in enumerate(self.devices):
            assert device.id is not None
            runs = len(self._records.runs_for_device(device.id))
            cells = [
                device.name or "–",
                self._records.board(device) or "–",
                f"{device.host}:{device.port}",
                device.user,
                device.last_seen.astimezone().strftime("%Y-%m-%d %H:%M"),
                str(runs),
            ]
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeRowsToContents()
        self.empty.setVisible(not self.devices)
        self.connect_button.setEnabled(bool(self.devices))
        self.forget_button.setEnabled(bool(self.devices))
        if self.devices and self.table.currentRow() < 0:
            self.table.selectRow(0)

    def _current(self) -> DeviceRecord | None:
        row = self.table.currentRow()
        return self.devices[row] if 0 <= row < len(self.devices) else None

    def _connect(self) -> None:
        device = self._current()
        if device is not None:
            self.connect_requested.emit(device)

    def _forget(self) -> None:
        device = self._current()
        if device is None or device.id is None:
            return
        answer = QMessageBox.question(
            self,
            "Forget device",
            f"Forget {device.user}@{device.host} with all its runs and tuning records?",
        )
        if answer == QMessageBox.StandardButton.Yes:
            self._records.forget_device(device.id)
            self.shown()
