"""Errors of the history store, shown to the user instead of a traceback."""

from __future__ import annotations

from pathlib import Path

from sbctune.errors import UserError


class HistoryError(UserError):
    """The history database cannot be used."""


class NewerSchema(HistoryError):
    def __init__(self, path: Path, found: int, supported: int) -> None:
        super().__init__(
            f"The history database {path} was written by a newer sbctune (schema version "
            f"{found}; this version reads up to {supported}).",
            "Update sbctune, or set SBCTUNE_DATA_DIR to another folder to keep a separate "
            "history for this version.",
        )
        self.found = found
        self.supported = supported


class NotAHistory(HistoryError):
    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            f"The file {path} is damaged or is not an sbctune history database ({detail}).",
            "Move or rename that file; sbctune then starts a new, empty history there.",
        )


class NotFound(HistoryError):
    def __init__(self, what: str) -> None:
        super().__init__(f"The history has no {what}.", "It may have been deleted.")
