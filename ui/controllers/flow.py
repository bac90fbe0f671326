"""The one click, "Tune & Measure": sbctune.flow.one_click, shown live on the pages.

The flow runs baseline → tweaks under the guard → measure again → results; this controller
routes its events: measurement events to the live view of the step that runs, step changes to
the window (which shows the matching page), tuning events to the Tune page. Cancel cancels the
task; the flow reverts what it applied before the cancellation ends, and the tests measured
so far are stored, marked incomplete (as a cancelled Baseline / Measure again page does).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.flow import FlowEvent, FlowOptions, FlowResult, FlowStep, TuningEvent, one_click
from sbctune.history import History
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.plans import Plan
from sbctune.measure.runner import LiveInterval, PiLoad, RunStarted, TestFinished, TestStarted
from sbctune.remote import Session
from sbctune.ui.controllers.connection import problem_from
from sbctune.ui.controllers.iperf3_install import InstallAsker, offering_install
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.measurement import MeasureController, save_partial
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner

_MEASURE_EVENTS = (LiveInterval, PiLoad, TestStarted, TestFinished)


class FlowController(QObject):
    step = Signal(str, str, str)  # step, status, detail
    tuning_event = Signal(str)
    finished = Signal(object)  # FlowResult
    failed = Signal(object)  # Problem
    cancelled = Signal()

    def __init__(
        self,
        state: AppState,
        runner: TaskRunner,
        history: History,
        baseline: MeasureController,
        again: MeasureController,
        endpoint: Callable[[], tuple[EndpointKind, str | None]],
        ask_install: InstallAsker,
    ) -> None:
        super().__init__()
        self._state = state
        self._runner = runner
        self._history = history
        self._measures = {"baseline": baseline, "measure_again": again}
        self._endpoint = endpoint
        self._ask_install = ask_install
        self._pending_run: MeasureRun | None = None  # the measuring step's run, until stored
        self._task: asyncio.Task[None] | None = None
        self._live: LiveMeasurement | None = None
        self._plan: Plan | None = None
        self.current_step: str | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, plan: Plan, guard_seconds: int = 90) -> None:
        if self.running:
            return
        self._plan = plan
        self._task = self._runner.start(
            self._run(plan, guard_seconds),
            name="one-click",
            on_error=lambda exc: self.failed.emit(problem_from(exc)),
        )
        self._task.add_done_callback(lambda t: self.cancelled.emit() if t.cancelled() else None)

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def wait(self) -> None:
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _on_event(self, event: FlowEvent) -> None:
        if isinstance(event, FlowStep):
            self._on_step(event.step, event.status, event.detail, event.run_id)
        elif isinstance(event, TuningEvent):
            self.tuning_event.emit(event.message)
        elif isinstance(event, RunStarted):
            self._pending_run = event.run
        elif isinstance(event, _MEASURE_EVENTS) and self._live is not None:
            self._live.feed(event)

    def _on_step(self, step: str, status: str, detail: str, run_id: int | None) -> None:
        self.current_step = step
        controller = self._measures.get(step)
        if controller is not None and status == "started" and self._plan is not None:
            self._live = controller.begin_live(self._plan)
        if controller is not None and status == "done" and run_id is not None:
            self._pending_run = None
            run = self._history.run(run_id)
            self._state.set("baseline" if step == "baseline" else "after", run)
            controller.finished.emit(run)
        self.step.emit(step, status, detail)

    async def _run(self, plan: Plan, guard_seconds: int) -> None:
        session = self._state.session
        inventory = self._state.inventory
        if session is None or inventory is None:
            raise UserError("Connect and inspect the Pi first.", "Start at Connect.")
        kind, iperf3_path = self._endpoint()
        options = FlowOptions(
            plan=plan,
            nic=self._state.nic,
            endpoint_kind=kind,
            iperf3_path=iperf3_path,
            guard_seconds=guard_seconds,
        )
        self._state.forget_results()
        self._pending_run = None

        async def attempt() -> FlowResult:
            return await one_click(
                session,
                inventory,
                options,
                self._history,
                on_event=self._on_event,
                inventory_id=self._state.inventory_id,
            )

        try:
            result = await offering_install(
                session, self._ask_install, self._measures["baseline"].preparing, attempt
            )
        except asyncio.CancelledError:
            self._keep_partial(session, plan)
            raise
        self._state.set("baseline", result.baseline)
        self._state.set("after", result.after)
        self._state.set("tuning", result.tuning)
        self._state.set("tuning_state", "confirmed" if result.tuning is not None else None)
        self._state.set("advice", result.advice)
        self.finished.emit(result)

    def _keep_partial(self, session: Session, plan: Plan) -> None:
        """Store what the cancelled measuring step had measured, marked incomplete."""
        step = self.current_step
        controller = self._measures.get(step or "")
        if controller is None or self._pending_run is None:
            return
        run, self._pending_run = self._pending_run, None
        tuned = self._flow_tuning(session) if step == "measure_again" else None
        record = save_partial(self._history, session, run, plan, self._state.inventory_id, tuned)
        if record is not None:
            controller.stopped_early.emit(record)

    def _flow_tuning(self, session: Session) -> dict[str, Any] | None:
        """The tuning session this flow applied (the device's newest), as `tuning_state`."""
        target = session.target
        device = self._history.device_for(target.host, target.port, session.username)
        sessions = self._history.tuning_sessions(device.id) if device and device.id else []
        if not sessions:
            return None
        data = sessions[0].data  # newest first
        tweaks = data.get("tweaks", [])
        kept = [t["id"] for t in tweaks if t.get("status") in ("applied", "already")]
        return {"session": data.get("id"), "tweaks": kept}
