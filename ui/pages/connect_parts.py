"""Small parts of the Connect page (kept apart so the page stays one screenful of code): a
line of the Find list, and where the keyboard goes after a failed connect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from sbctune.textsafe import visible

if TYPE_CHECKING:  # the Connect page is made before the core is imported (issue 22)
    from sbctune.ui.controllers.finding import FoundHost


def found_text(host: FoundHost) -> str:
    """One line of the Find list; the host name came from the network: shown, never obeyed."""
    name = visible(host.hostname or "")[:60]
    parts = [host.address, name, host.kind_words]
    return "  ·  ".join(p for p in parts if p)


def focus_to_fix(
    field: str, host: QComboBox, secret: QLineEdit, key_file: QLineEdit, *, password: bool
) -> None:
    """After a failed connect, the keyboard where the user fixes it, its text selected: a
    refused login the password (or the key file), an address nobody answers at the host (s10
    walk at 800x600: typing the right password after a wrong one went nowhere)."""
    if field == "login" and password:
        secret.setFocus(Qt.FocusReason.OtherFocusReason)
        secret.selectAll()
    elif field == "login":
        key_file.setFocus(Qt.FocusReason.OtherFocusReason)
    elif field == "host":
        host.setFocus(Qt.FocusReason.OtherFocusReason)
        edit = host.lineEdit()  # the host field is editable: it has one
        if edit is not None:
            edit.selectAll()
