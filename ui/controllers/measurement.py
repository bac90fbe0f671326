"""Baseline / Measure again: run a plan live, keep the run in the history, hand back the record."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import Plan
from sbctune.measure.runner import measure
from sbctune.ui.controllers.connection import problem_from
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner

Role = Literal["baseline", "after"]


class MeasureController(QObject):
    """One per page: `started(live)`, then `finished(record)` or `failed(problem)`."""

    started = Signal(object)  # LiveMeasurement
    finished = Signal(object)  # RunRecord
    failed = Signal(object)  # Problem
    cancelled = Signal()

    def __init__(
        self,
        role: Role,
        state: AppState,
        runner: TaskRunner,
        history: History,
        endpoint: Callable[[], tuple[EndpointKind, str | None]],
    ) -> None:
        super().__init__()
        self.role = role
        self._state = state
        self._runner = runner
        self._history = history
        self._endpoint = endpoint
        self._task: asyncio.Task[None] | None = None
        self.live: LiveMeasurement | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, plan: Plan) -> None:
        if self.running:
            return
        self._task = self._runner.start(
            self._run(plan),
            name=f"measure-{self.role}",
            on_error=lambda exc: self.failed.emit(problem_from(exc)),
        )
        self._task.add_done_callback(self._ended)

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def wait(self) -> None:
        """For tests and shutdown: until the task (and its clean-up) is over."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _ended(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            self.cancelled.emit()

    def begin_live(self, plan: Plan) -> LiveMeasurement:
        """A fresh live view (also used by the one-click flow, which runs the measurement)."""
        nic = self._state.selected_nic
        line_rate = nic.link_speed_mbps or nic.max_link_speed_mbps if nic else None
        self.live = LiveMeasurement(plan, float(line_rate) if line_rate else None)
        self.started.emit(self.live)
        return self.live

    async def _run(self, plan: Plan) -> None:
        session = self._state.session
        if session is None:
            raise UserError("Not connected to a Pi.", "Go to Connect first.")
        nic = self._state.selected_nic
        live = self.begin_live(plan)
        kind, iperf3_path = self._endpoint()
        run = await measure(
            session,
            plan,
            nic=self._state.nic,
            endpoint=kind,
            iperf3_path=iperf3_path,
            on_event=live.feed,
            nic_irqs=tuple(nic.irqs) if nic else (),
        )
        run_id = save_measurement(
            self._history, session.target, session.username, run, plan, self._state.inventory_id
        )
        record: RunRecord = self._history.run(run_id)
        self._state.set("baseline" if self.role == "baseline" else "after", record)
        self.finished.emit(record)
