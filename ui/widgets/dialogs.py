"""Dialogs: trust a new host key, and About (versions on both sides)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from sbctune.remote import HostKeyInfo
from sbctune.ui.widgets.common import label


class HostKeyDialog(QDialog):
    """Shows the SHA256 fingerprint of a host seen for the first time; Trust or Cancel."""

    def __init__(self, info: HostKeyInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("hostKeyDialog")
        self.setWindowTitle("New host key")
        self.setModal(True)
        layout = QVBoxLayout(self)
        where = info.host if info.port == 22 else f"{info.host} (port {info.port})"
        layout.addWidget(
            label(f"This is the first time sbctune connects to {where}.", name="cardTitle")
        )
        layout.addWidget(label(f"Its {info.key_type} host key fingerprint is:"))
        self.fingerprint = QLabel(info.fingerprint)
        self.fingerprint.setObjectName("fingerprint")
        self.fingerprint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.fingerprint.font()
        font.setFamily("monospace")
        font.setStyleHint(font.StyleHint.Monospace)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.fingerprint.setFont(font)
        layout.addWidget(self.fingerprint)
        layout.addWidget(
            label(
                "To be sure you are talking to your Pi, compare it with what the Pi itself says: "
                "run `ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` on the Pi (with a "
                "screen and keyboard attached). Trust it only if the two match.",
                name="muted",
            )
        )
        buttons = QDialogButtonBox()
        self.trust = buttons.addButton("Trust and connect", QDialogButtonBox.ButtonRole.AcceptRole)
        self.refuse = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.refuse.setDefault(True)  # Enter must not trust a key by accident
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)


async def ask_host_key(info: HostKeyInfo, parent: QWidget | None) -> bool:
    """Open the dialog without a nested event loop and wait for the answer."""
    dialog = HostKeyDialog(info, parent)
    answer: asyncio.Future[bool] = asyncio.get_event_loop().create_future()

    def finished(result: int) -> None:
        if not answer.done():
            answer.set_result(result == int(QDialog.DialogCode.Accepted))

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await answer
    finally:
        dialog.deleteLater()


class AboutDialog(QDialog):
    """The app, Qt and iperf3 versions, on this PC and on the Pi."""

    def __init__(self, facts: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About sbctune")
        layout = QVBoxLayout(self)
        layout.addWidget(label("sbctune", name="pageTitle"))
        layout.addWidget(
            label(
                "Measures and tunes the network of a Raspberry Pi or other Linux single-board "
                "computer, and proves the result with iperf3.",
                name="muted",
            )
        )
        from sbctune.ui.widgets.common import FactGrid

        self.grid = FactGrid(facts)
        layout.addWidget(self.grid)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)
