"""The base of every error that is shown to the user instead of a traceback."""

from __future__ import annotations

import sys


class UserError(Exception):
    """An error with a message a non-expert understands and a hint on what to do next."""

    exit_code = 1

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class LabNeedsLinux(UserError):
    """The virtual Pi lab (network namespaces, FUSE, KVM) runs on Linux only; on Windows and
    macOS its entry points raise this before importing anything of it."""

    def __init__(self) -> None:
        system = {"win32": "Windows", "darwin": "macOS"}.get(sys.platform, sys.platform)
        super().__init__(
            f"the virtual Pi lab needs Linux (network namespaces, FUSE); this is {system}",
            "run the lab on a Linux machine or VM, as root, or give a real Pi's address "
            "instead (e.g. pi@raspberrypi.local)",
        )

    @classmethod
    def refuse_unless_linux(cls) -> None:
        if not sys.platform.startswith("linux"):
            raise cls()


class LabLeftOut(UserError):
    """The virtual Pi lab is not in this build: the Windows and macOS bundles leave it out
    (packaging/spec_support.py); its entry points raise this instead of an ImportError."""

    def __init__(self) -> None:
        super().__init__(
            "the virtual Pi lab is not part of the packaged app",
            "run it from a source checkout on Linux, as root (see the README's set-up)",
        )
