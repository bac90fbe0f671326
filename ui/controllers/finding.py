"""Find my Pi for the Connect page: sbctune.workflow.finding run as a task; the page listens
to `busy`, `found` and `failed` (nothing found is a Problem with what to do)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from sbctune.history import History
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import Problem, problem_from

if TYPE_CHECKING:  # zeroconf loads only when the user looks for a Pi
    from sbctune.discovery import FoundHost

__all__ = ["FindController", "FoundHost", "found_summary"]  # the Connect page's names


def found_summary(hosts: list[FoundHost]) -> str:
    """The count above the Find list and why (sbctune.discovery.model.found_summary)."""
    from sbctune.discovery.model import found_summary as summary

    return summary(hosts)


SCAN_HOW = "Finding again with “also probe port 22”"


class FindController(QObject):
    busy = Signal(bool)
    found = Signal(object)  # list[FoundHost], Raspberry Pis first
    failed = Signal(object)  # Problem

    def __init__(self, runner: TaskRunner, history: History) -> None:
        super().__init__()
        self._runner = runner
        self._history = history
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def find(self, *, scan: bool = False, seconds: float = 3.0) -> None:
        if self.running:
            return
        self._task = self._runner.start(self._find(scan, seconds), name="find", on_error=self._fail)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _fail(self, exc: BaseException) -> None:
        self.busy.emit(False)
        self.failed.emit(problem_from(exc))

    async def _find(self, scan: bool, seconds: float) -> None:
        # Imported here: zeroconf loads only when the user looks for a Pi.
        from sbctune.workflow.finding import (
            find,
            find_options,
            names_used_before,
            nothing_found_hint,
        )

        self.busy.emit(True)
        try:
            options = find_options(
                seconds, scan=scan, names_before=names_used_before(self._history)
            )
            hosts = await find(options)
        finally:
            self.busy.emit(False)
        if hosts:
            self.found.emit(hosts)
        else:
            self.failed.emit(Problem("No Pi answered.", nothing_found_hint(scan, SCAN_HOW)))
