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

from sbctune.measure.install import InstallPlan
from sbctune.remote import HostKeyInfo
from sbctune.ui.widgets.common import label


def _monospace(text: str, name: str) -> QLabel:
    widget = QLabel(text)
    widget.setObjectName(name)
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setWordWrap(True)
    widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    font = widget.font()
    font.setFamily("monospace")
    font.setStyleHint(font.StyleHint.Monospace)
    widget.setFont(font)
    return widget


async def _answer(dialog: QDialog) -> bool:
    """Open `dialog` without a nested event loop and wait for Accepted / Rejected."""
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


def host_key_file(key_type: str) -> str:
    """Where OpenSSH keeps the Pi's public host key of this type (ssh-keygen's file names)."""
    for marker, name in (("ed25519", "ed25519"), ("ecdsa", "ecdsa"), ("rsa", "rsa")):
        if marker in key_type:
            return f"/etc/ssh/ssh_host_{name}_key.pub"
    return "/etc/ssh/ssh_host_ed25519_key.pub"


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
        self.fingerprint = _monospace(info.fingerprint, "fingerprint")
        font = self.fingerprint.font()
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.fingerprint.setFont(font)
        layout.addWidget(self.fingerprint)
        public_key = host_key_file(info.key_type)
        layout.addWidget(
            label(
                "To be sure this is your Pi, compare it with the Pi's own fingerprint, and "
                "trust it only if the two match. A Pi without a screen can tell you in two ways:",
                name="muted",
            )
        )
        layout.addWidget(
            label(
                "• Over SSH: the first time you logged in to it with another SSH program, that "
                "program showed this fingerprint; or, logged in, run this command on the Pi:",
                name="muted",
            )
        )
        self.command = _monospace(f"ssh-keygen -lf {public_key}", "fingerprintCommand")
        layout.addWidget(self.command)
        layout.addWidget(
            label(
                "• From its SD card: in a Linux PC, run the same command on the file "
                f"{public_key.lstrip('/')} of the card's main (rootfs) partition.",
                name="muted",
            )
        )
        buttons = QDialogButtonBox()
        self.trust = buttons.addButton("&Trust and connect", QDialogButtonBox.ButtonRole.AcceptRole)
        self.refuse = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.refuse.setDefault(True)  # Enter must not trust a key by accident
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)


async def ask_host_key(info: HostKeyInfo, parent: QWidget | None) -> bool:
    return await _answer(HostKeyDialog(info, parent))


class InstallIperf3Dialog(QDialog):
    """iperf3 is missing on the Pi: the exact command, and Install (needs a yes) or Not now."""

    def __init__(self, plan: InstallPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("installIperf3Dialog")
        self.setWindowTitle("Install iperf3 on the Pi?")
        self.setModal(True)
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(f"iperf3 is not installed on the Pi ({plan.distro}).", name="cardTitle")
        )
        layout.addWidget(
            label(
                "sbctune measures with the Pi's own iperf3. It can install it now with the Pi's "
                "package manager, through sudo, with this command:"
            )
        )
        self.command = _monospace(plan.command, "installCommand")
        layout.addWidget(self.command)
        layout.addWidget(
            label(
                "This downloads the package from the Pi's configured sources and may take a "
                "minute. Choose Not now to install it yourself; nothing is changed then.",
                name="muted",
            )
        )
        buttons = QDialogButtonBox()
        self.install = buttons.addButton("Install iperf3", QDialogButtonBox.ButtonRole.AcceptRole)
        self.decline = buttons.addButton("Not now", QDialogButtonBox.ButtonRole.RejectRole)
        self.decline.setDefault(True)  # installing software needs a deliberate click
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)


async def ask_install_iperf3(plan: InstallPlan, parent: QWidget | None) -> bool:
    return await _answer(InstallIperf3Dialog(plan, parent))


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
        layout.addStretch(1)  # spare height below the facts, not in gaps between them
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)
