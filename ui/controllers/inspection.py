"""Inspect: the inventory of the connected Pi, and which NIC to test by default."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.inventory.model import Finding, Inventory, Recommendation
from sbctune.inventory.warning_words import not_offered_line, warning_words
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import problem_from
from sbctune.workflow.connecting import inspect_pi

# What the Inspect and Results pages name (they never import the core's inventory package).
__all__ = [
    "Finding",
    "InspectController",
    "Inventory",
    "Recommendation",
    "not_offered_line",
    "warning_words",
]


class InspectController(QObject):
    busy = Signal(bool)
    inspected = Signal(object)  # Inventory
    failed = Signal(object)  # Problem

    def __init__(self, state: AppState, runner: TaskRunner, history: History) -> None:
        super().__init__()
        self._state = state
        self._runner = runner
        self._history = history
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def inspect(self) -> None:
        if self.running:
            return
        self._task = self._runner.start(self._inspect(), name="inspect", on_error=self._fail)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _fail(self, exc: BaseException) -> None:
        self.busy.emit(False)
        self.failed.emit(problem_from(exc))

    def choose_nic(self, name: str) -> None:
        self._state.model.choose_nic(name)

    async def _inspect(self) -> None:
        state = self._state.model
        session = state.session
        if session is None:
            raise UserError("Not connected to a Pi.", "Go to Connect first.")
        self.busy.emit(True)
        try:
            found = await inspect_pi(session, self._history, state.device_id)
        except asyncio.CancelledError:
            self.busy.emit(False)
            raise
        state.inspected(found.inventory, found.inventory_id, found.nic, found.nic_note)
        self.busy.emit(False)
        self.inspected.emit(found.inventory)
