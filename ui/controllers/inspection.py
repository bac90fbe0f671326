"""Inspect: the inventory of the connected Pi, and which NIC to test by default."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Signal

from sbctune.advice.inspect import inspect_host, raw_json
from sbctune.errors import UserError
from sbctune.history import History
from sbctune.inventory.model import Inventory
from sbctune.measure.runner import find_path
from sbctune.ui.controllers.connection import problem_from
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner


def default_nic(inventory: Inventory, route_dev: str | None) -> str | None:
    """The NIC that carries traffic to this PC, else the first wired one with a name."""
    names = [n.name for n in inventory.nics if n.name]
    if route_dev in names:
        return route_dev
    wired = [n.name for n in inventory.nics if n.name and not n.wireless]
    choices = wired or names
    return choices[0] if choices else None


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
        if name != self._state.nic:
            self._state.set("nic", name)
            self._state.forget_results()

    async def _inspect(self) -> None:
        session = self._state.session
        if session is None:
            raise UserError("Not connected to a Pi.", "Go to Connect first.")
        self.busy.emit(True)
        try:
            inventory, collection = await inspect_host(session)
            path = await find_path(session, None)
        except asyncio.CancelledError:
            self.busy.emit(False)
            raise
        if self._state.device_id is not None:
            # With the raw outputs, so the history can give a diagnostics bundle back later.
            stored = inventory.to_json() | {"raw": raw_json(collection)}
            inventory_id = self._history.save_inventory(self._state.device_id, stored)
            self._state.set("inventory_id", inventory_id)
        self._state.set("inventory", inventory)
        self._state.set("nic", default_nic(inventory, path.route_dev))
        self._state.forget_results()
        self.busy.emit(False)
        self.inspected.emit(inventory)
