"""Small parts of the Connect page (kept apart so the page stays one screenful of code): where
the keyboard goes after a failed connect. The Find list is ``sbctune.ui.pages.find_card``'s."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit


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
