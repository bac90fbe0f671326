"""The base of every error that is shown to the user instead of a traceback."""

from __future__ import annotations


class UserError(Exception):
    """An error with a message a non-expert understands and a hint on what to do next."""

    exit_code = 1

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class LabLeftOut(UserError):
    """The virtual Pi lab is not in this build: the Windows and macOS bundles leave it out
    (packaging/spec_support.py); its entry points raise this instead of an ImportError."""

    def __init__(self) -> None:
        super().__init__(
            "the virtual Pi lab is not part of the packaged app",
            "run it from a source checkout on Linux, as root (see the README's set-up)",
        )
