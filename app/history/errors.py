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


class HistoryBusy(HistoryError):
    """Another program holds a lock on the history longer than sbctune waits: the file is
    fine, so never "damaged" (that advice would make a user discard a good history)."""

    def __init__(self, path: Path, holders: list[str], waited: float) -> None:
        held = f" ({', '.join(holders)} has it open)" if holders else ""
        super().__init__(
            f"The history database {path} is busy: it is locked by another program{held}, "
            f"and stayed locked for the {waited:.0f} s sbctune waited. The history itself is "
            "not damaged.",
            "Let the other program (another sbctune, or a database browser) finish or close "
            "the file, then run the command again.",
        )
        self.holders = holders


class UnreadableRecord(HistoryError):
    """One record of the history cannot be read; the others can."""

    def __init__(self, path: Path, what: str, detail: str) -> None:
        super().__init__(
            f"{what} in the history {path} cannot be read ({detail}). The rest of the history "
            "is fine.",
            "List the history to see what can be read; that record cannot be shown or compared.",
        )


class NotFound(HistoryError):
    def __init__(self, what: str) -> None:
        super().__init__(f"The history has no {what}.", "It may have been deleted.")


class CannotWrite(HistoryError):
    """The history is fine but this computer will not let sbctune write it: permissions, a
    read-only file system, a full disk. Never "damaged": that advice would make a user
    discard a good history."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"sbctune cannot write to the history database {path}: {reason}. The history "
            "itself is not damaged.",
            "Free some disk space or give your user write access to that folder, or set "
            "SBCTUNE_DATA_DIR to a folder you can write; commands that only read the history "
            "still work.",
        )
        self.reason = reason
