"""The Connect page's "Pis on this network" card: what Find my Pi found, one line each; picking
one gives its address (``picked``). Hidden until Find is used. The page starts the search and
fills the host field; this card only shows the search and its results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QListWidget, QListWidgetItem, QProgressBar

from sbctune.textsafe import visible
from sbctune.ui.widgets.common import Card, label

if TYPE_CHECKING:  # the Connect page is made before the core is imported (issue 22)
    from sbctune.ui.controllers.finding import FoundHost
    from sbctune.workflow import Problem


def found_text(host: FoundHost) -> str:
    """One line of the Find list; the host name came from the network: shown, never obeyed."""
    name = visible(host.hostname or "")[:60]
    parts = [host.address, name, host.kind_words]
    return "  ·  ".join(p for p in parts if p)


class FindCard(Card):
    picked = Signal(str)  # the address of the host the user chose

    def __init__(self) -> None:
        super().__init__("Pis on this network")
        self.found_list = QListWidget()
        self.found_list.setObjectName("found")
        self.found_list.setMaximumHeight(140)
        self.found_list.setWordWrap(True)
        self.found_list.itemActivated.connect(self._use_found)
        self.found_list.itemClicked.connect(self._use_found)
        self.scan = QCheckBox("Also probe port 22 on every address of this network (up to 254)")
        self.scan.setToolTip(
            "Off: only mDNS is sent. On: sbctune also connects to port 22 of each address of "
            "this PC's own subnet, which finds a Pi that does not announce itself."
        )
        self.find_status = label(name="muted")
        self.find_status.setWordWrap(True)
        self.find_progress = QProgressBar()
        self.find_progress.setRange(0, 0)
        self.find_progress.setMaximumWidth(160)
        self.find_progress.hide()
        row = QHBoxLayout()
        row.addWidget(self.find_progress)
        row.addWidget(self.find_status, 1)
        self.body.addLayout(row)
        self.body.addWidget(self.found_list)
        self.body.addWidget(self.scan)
        # Names and descriptions a screen reader says (the visible labels lack context).
        for widget, name, text in (
            (self.found_list, "Pis found on this network", "choose one to fill the host field"),
            (self.scan, "Also probe port 22", "connects to each address of this network"),
        ):
            widget.setAccessibleName(name)
            widget.setAccessibleDescription(text)
        self.hide()

    def busy(self, busy: bool) -> None:
        self.scan.setEnabled(not busy)
        self.find_progress.setVisible(busy)
        if busy:
            how = "mDNS and port 22" if self.scan.isChecked() else "mDNS"
            self.find_status.setText(f"Looking for Raspberry Pis ({how})…")

    def found(self, hosts: list[FoundHost]) -> None:
        # here, not at the top: the Find controller brings history and the workflow, which the
        # first window is shown without (tests/unit/test_first_window_imports.py)
        from sbctune.ui.controllers.finding import found_summary

        self.find_status.setText(f"{found_summary(hosts)}. Choose one to fill in its address.")
        for host in hosts:
            item = QListWidgetItem(found_text(host))
            item.setData(Qt.ItemDataRole.UserRole, host.address)
            item.setToolTip("found by " + ", ".join(host.sources))
            self.found_list.addItem(item)
        if self.found_list.count():
            self.found_list.setCurrentRow(0)

    def failed(self, problem: Problem) -> None:
        self.find_status.setText(f"{problem.message} {problem.hint}".strip())

    def _use_found(self, item: QListWidgetItem) -> None:
        address = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(address, str):
            self.picked.emit(address)
