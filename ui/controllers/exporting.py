"""Exports: every format sbctune.export offers, written to a folder the user picked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import platformdirs
from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.export import available, export, formats, gather
from sbctune.filenames import safe_file_name
from sbctune.history import History
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import problem_from

EXTENSION = {"md": "md", "ansible": "yml", "bundle": "zip"}


def default_folder() -> Path:
    """Where exports go unless the user picks another folder: an sbctune folder among the
    user's documents (made at the first export), not loose files in the home folder."""
    return Path(platformdirs.user_documents_dir()) / "sbctune"


def file_name(fmt: str, run_ids: list[int]) -> str:
    runs = "-".join(str(i) for i in run_ids)
    return safe_file_name(f"sbctune-runs-{runs}.{EXTENSION.get(fmt, fmt)}")  # many runs: long


class ExportController(QObject):
    exported = Signal(str, str)  # format, path written
    failed = Signal(object)  # Problem

    @staticmethod
    def formats() -> list[str]:
        return list(formats())

    @staticmethod
    def available(fmt: str) -> bool:
        """Whether this computer can write the format (PNG needs Qt's renderer, ...)."""
        return available(fmt)

    def __init__(self, runner: TaskRunner, history: History) -> None:
        super().__init__()
        self._runner = runner
        self._history = history

    @staticmethod
    def existing(formats: list[str], run_ids: list[int], folder: Path) -> list[Path]:
        """The files an export would replace (a link there is refused, never replaced)."""
        paths = [folder / file_name(fmt, run_ids) for fmt in formats]
        return [p for p in paths if p.exists() and not p.is_symlink()]

    def export(
        self, formats: list[str], run_ids: list[int], folder: Path, *, overwrite: bool = False
    ) -> None:
        """`overwrite`: the user agreed to replace the files `existing` named."""
        self._runner.start(
            self._export(formats, run_ids, folder, overwrite),
            name="export",
            on_error=lambda exc: self.failed.emit(problem_from(exc)),
        )

    async def _export(
        self, formats: list[str], run_ids: list[int], folder: Path, overwrite: bool
    ) -> None:
        if not run_ids:
            raise UserError("There is no run to export yet.", "Measure first.")
        if not folder.exists() and (folder == default_folder() or folder.parent.is_dir()):
            # The default folder (Documents may not exist yet either), or a new one the user
            # typed inside an existing one; a typo deeper down is reported instead.
            folder.mkdir(parents=True)
        if not folder.is_dir():
            raise UserError(
                f"The folder {folder} does not exist.", "Choose an existing folder to export to."
            )
        data = gather(self._history, run_ids)
        for fmt in formats:
            await asyncio.sleep(0)  # let the window repaint between formats
            try:
                written = export(fmt, data, folder / file_name(fmt, run_ids), overwrite=overwrite)
            except UserError as exc:
                self.failed.emit(problem_from(exc))
                continue
            self.exported.emit(fmt, str(written))
