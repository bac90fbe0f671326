"""Baseline / Measure again: run a plan live, keep the run in the history, hand back the record.

Cancel stops both sides (the runner does) and, like the CLI's Ctrl-C, keeps what was measured:
the run the runner announced with `RunStarted` is stored, marked incomplete.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import Plan
from sbctune.measure.runner import Event, RunStarted, measure
from sbctune.remote import Session
from sbctune.ui.controllers.connection import problem_from
from sbctune.ui.controllers.iperf3_install import InstallAsker, offering_install
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner

Role = Literal["baseline", "after"]


async def _never(_plan: object) -> bool:
    return False


def tuning_in_force(state: AppState) -> dict[str, Any] | None:
    """The run's `tuning_state` (as the flow stores it): the session and its tweaks in force."""
    applied = state.tuning
    if applied is None or state.tuning_state not in ("guarded", "confirmed"):
        return None
    kept = [o.tweak_id for o in applied.outcomes if o.status in ("applied", "already")]
    return {"session": applied.id, "tweaks": kept}


def save_partial(
    history: History,
    session: Session,
    run: MeasureRun | None,
    plan: Plan,
    inventory_id: int | None,
    tuning_state: dict[str, Any] | None = None,
) -> RunRecord | None:
    """Store a cancelled run's tests (the runner marked them incomplete); None if nothing was
    measured yet."""
    if run is None or not any(t.intervals for t in run.tests):
        return None
    run_id = save_measurement(
        history, session.target, session.username, run, plan, inventory_id, tuning_state
    )
    return history.run(run_id)


class MeasureController(QObject):
    """One per page: `started(live)`, then `finished(record)` or `failed(problem)`; a cancel
    gives `stopped_early(record)` (when anything was measured) and then `cancelled()`."""

    started = Signal(object)  # LiveMeasurement
    finished = Signal(object)  # RunRecord
    failed = Signal(object)  # Problem
    stopped_early = Signal(object)  # RunRecord: the tests so far, stored, marked incomplete
    progress = Signal(str)  # before the tests: installing iperf3 on the Pi
    cancelled = Signal()

    def __init__(
        self,
        role: Role,
        state: AppState,
        runner: TaskRunner,
        history: History,
        endpoint: Callable[[], tuple[EndpointKind, str | None]],
        ask_install: InstallAsker = _never,
    ) -> None:
        super().__init__()
        self.role = role
        self._state = state
        self._runner = runner
        self._history = history
        self._endpoint = endpoint
        self._ask_install = ask_install
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

    def preparing(self, text: str) -> None:
        """What happens before the first test (an install), on the live view and at once."""
        if self.live is not None:
            self.live.set_preparing(text)
        self.progress.emit(text)

    async def _run(self, plan: Plan) -> None:
        session = self._state.session
        if session is None:
            raise UserError("Not connected to a Pi.", "Go to Connect first.")
        nic = self._state.selected_nic
        live = self.begin_live(plan)
        kind, iperf3_path = self._endpoint()
        started: list[MeasureRun] = []
        tuned = tuning_in_force(self._state) if self.role == "after" else None

        def on_event(event: Event) -> None:
            if isinstance(event, RunStarted):
                started.append(event.run)
            live.feed(event)

        async def attempt() -> MeasureRun:
            return await measure(
                session,
                plan,
                nic=self._state.nic,
                endpoint=kind,
                iperf3_path=iperf3_path,
                on_event=on_event,
                nic_irqs=tuple(nic.irqs) if nic else (),
            )

        try:
            run = await offering_install(session, self._ask_install, self.preparing, attempt)
        except asyncio.CancelledError:
            partial = save_partial(
                self._history,
                session,
                started[-1] if started else None,
                plan,
                self._state.inventory_id,
                tuned,
            )
            if partial is not None:
                self.stopped_early.emit(partial)
            raise
        run_id = save_measurement(
            self._history,
            session.target,
            session.username,
            run,
            plan,
            self._state.inventory_id,
            tuned,
        )
        record: RunRecord = self._history.run(run_id)
        self._state.set("baseline" if self.role == "baseline" else "after", record)
        self.finished.emit(record)
