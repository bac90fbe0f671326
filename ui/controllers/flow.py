"""The one click, "Tune & Measure": sbctune.workflow's one_click, shown live on the pages.

The flow runs its steps (sbctune.workflow.steps.FLOW_STEPS); this controller routes its
events: measurement events to the live view of the measuring step that runs, step changes to
the window (which shows the step's page), tuning events to the Tune page. Cancel cancels the
task; the flow keeps the tests measured so far (marked incomplete) and reverts what it applied
before the cancellation ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.measure.latency.during import LiveLatency
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.plans import Plan
from sbctune.measure.runner import LiveInterval, PiLoad, RunStarted, TestFinished, TestStarted
from sbctune.measure.steady import TrialsAdded
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.measurement import MeasureController
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import (
    FLOW_STEPS,
    FlowCancelled,
    FlowEvent,
    FlowOptions,
    FlowResult,
    FlowStep,
    PartialKept,
    Problem,
    StepSpec,
    TuningEvent,
    one_click,
    problem_from,
)
from sbctune.workflow.estimate import FlowEstimate
from sbctune.workflow.flow_baseline import (
    FlowBaselineCheck,
    check_before_flow,
    revert_choice,
    settle_before_flow,
)
from sbctune.workflow.flow_types import FlowTuning, GuardHeld, MeasuringAlone
from sbctune.workflow.rules import InstallAsker, offering_install
from sbctune.workflow.steps import CALIBRATE, FIND_FLOW_STEPS

__all__ = ["FlowBaselineCheck", "FlowController", "revert_choice", "with_calibration"]

_MEASURE_EVENTS = (LiveInterval, LiveLatency, PiLoad, TestStarted, TestFinished, TrialsAdded)


def with_calibration(steps: Sequence[StepSpec], calibrate: bool) -> tuple[StepSpec, ...]:
    """The flow's steps, with the A/A calibration right after the baseline when asked."""
    if not calibrate or CALIBRATE in steps:
        return tuple(steps)
    at = next((i + 1 for i, s in enumerate(steps) if s.id == "baseline"), 0)
    return (*steps[:at], CALIBRATE, *steps[at:])


class FlowController(QObject):
    step = Signal(str, str, str)  # step id, status, detail
    tuning_event = Signal(str)
    finished = Signal(object)  # FlowResult
    failed = Signal(object)  # Problem
    cancelled = Signal()
    measuring_alone = Signal()  # a step without a page of its own measures on `alone`'s page

    def __init__(
        self,
        state: AppState,
        runner: TaskRunner,
        history: History,
        measures: dict[str, MeasureController],
        endpoint: Callable[[], tuple[EndpointKind, str | None]],
        ask_install: InstallAsker,
        steps: Sequence[StepSpec] = FLOW_STEPS,
        alone: MeasureController | None = None,
    ) -> None:
        """`measures`: the measure controller showing each measuring step, by step id.
        `alone`: the one whose page shows the runs of steps without a page of their own (each
        tweak measured alone), live, as the baseline is shown."""
        super().__init__()
        self._state = state
        self.cancel_words = ""  # what the last cancel read back from the Pi (FlowCancelled)
        self._runner = runner
        self._history = history
        self._measures = measures
        self._endpoint = endpoint
        self._ask_install = ask_install
        self._steps = tuple(steps)
        self._task: asyncio.Task[None] | None = None
        self._live: LiveMeasurement | None = None
        self._plan: Plan | None = None
        self._calibrate = False
        self._find = False
        self._allow_link_restart = False
        self._revert_first = False
        self.current_step: str | None = None
        self.step_ids: list[str] = []  # of the flow that runs or ran last, in order
        # Its time left, from its events: every step's plan, extra trials, each tweak's run.
        self.estimate: FlowEstimate | None = None
        self._alone = alone
        self._topic: str | None = None  # what the next run of such a step measures
        # The page's run before the step measured on it: shown again when the step ends.
        self._before_alone: tuple[LiveMeasurement | None, RunRecord | None] | None = None

    @property
    def plan(self) -> Plan | None:
        return self._plan

    @property
    def live(self) -> LiveMeasurement | None:
        """The live view of the measuring step that runs (or ran last)."""
        return self._live

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(
        self,
        plan: Plan,
        guard_seconds: int = 90,
        *,
        calibrate: bool = False,
        find: bool = False,
        tweaks: int = 0,
        allow_link_restart: bool = False,
        revert_first: bool = False,
    ) -> None:
        """`calibrate`: measure the baseline twice first (A/A), shown on the baseline's page.
        `find`: "Find what helps" (each tweak alone) instead of the one-click flow, expected to
        measure `tweaks` tweaks (for the time left until it says how many it measures).
        `allow_link_restart`: the user agreed to tweaks that briefly drop the link of the NIC
        this app talks through (sbctune.workflow.link_consent); without it they are held back.
        `revert_first`: the user chose to put the tuning in force back (and read the Pi back
        untuned) before the baseline; without it a flow with tuning in force fails unmeasured."""
        if self.running:
            return
        self.cancel_words = ""
        self._before_alone, self._topic = None, None
        self._revert_first = revert_first
        self._plan = plan
        self._allow_link_restart = allow_link_restart
        self._calibrate = calibrate
        self._find = find
        self.step_ids = [
            s.id for s in with_calibration(FIND_FLOW_STEPS if find else self._steps, calibrate)
        ]
        self.estimate = FlowEstimate(self.step_ids, plan, tweaks=tweaks)
        for controller in self._measures.values():
            controller.driven_by(self.cancel)
        self._task = self._runner.start(
            self._run(plan, guard_seconds), name="one-click", on_error=self._fail
        )
        self._task.add_done_callback(self._ended)

    def before_baseline(self) -> FlowBaselineCheck:
        """Is tuning in force on the Pi, as the session read it back? Then the window asks
        before the flow (its baseline would be the tuned speed)."""
        if self.running or self._state.model.session is None:
            return FlowBaselineCheck("start")
        return check_before_flow(self._state.model)

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def wait(self) -> None:
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _fail(self, exc: BaseException) -> None:
        problem: Problem = problem_from(exc)
        self.failed.emit(problem)
        for controller in self._measures.values():
            controller.flow_ended("failed")

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._state.model.flow_stopped()
        if task.cancelled():
            for controller in self._measures.values():
                controller.flow_ended("cancelled")
            self.cancelled.emit()
        else:
            for controller in self._measures.values():
                controller.driven_by(None)

    def _on_event(self, event: FlowEvent) -> None:
        if self.estimate is not None:
            self.estimate.feed(event)
        if isinstance(event, FlowStep):
            self._on_step(event)
        elif isinstance(event, TuningEvent):
            self.tuning_event.emit(event.message)
        elif isinstance(event, FlowCancelled):  # what the Pi read back: log and status bar
            self.cancel_words = event.words
            self.tuning_event.emit(event.words)
        elif isinstance(event, FlowTuning):  # what the flow has in force on the Pi now
            self._state.model.flow_tuning(event.applied, event.state)
        elif isinstance(event, GuardHeld):
            if event.hold is not None:
                self._state.model.holding(event.hold)
            else:
                self._state.model.hold_guard(event.held)
        elif isinstance(event, PartialKept):
            self._state.model.kept_partial(event.record)
            controller = self._measures.get(event.step)
            if controller is not None:
                controller.stopped_early.emit(event.record)
        elif isinstance(event, MeasuringAlone):
            self._topic = event.words
        elif isinstance(event, RunStarted) and self.current_step not in self._measures:
            self._measure_alone()
        elif isinstance(event, _MEASURE_EVENTS) and self._live is not None:
            self._live.feed(event)

    def _measure_alone(self) -> None:
        """A run of a step without a measuring page (each tweak alone): live on `alone`'s
        page, with what it measures in its status line."""
        alone, plan = self._alone, self._plan
        if alone is None or plan is None or self.current_step in self._measures:
            return
        first = self._before_alone is None
        if first:
            self._before_alone = (alone.live, self._state.model.after)
        self._live = alone.begin_live(plan)
        self._live.topic = self._topic
        if first:
            self.measuring_alone.emit()

    def _on_step(self, event: FlowStep) -> None:
        self.current_step = event.step
        controller = self._measures.get(event.step)
        if controller is not None and event.status == "started" and self._plan is not None:
            self._live = controller.begin_live(self._plan)
        elif controller is None and event.status == "started":
            # A step without a page of its own ("keep", "find") measures each tweak: its runs
            # get a live view of their own as each starts (`_measure_alone`).
            self._live = None
        elif controller is None and self._before_alone is not None and self._alone is not None:
            live, record = self._before_alone  # the step ended: its page as it was before
            self._before_alone = None
            self._live = None
            self._alone.alone_ended.emit(live, record)
        if controller is not None and event.status == "done" and event.run_id is not None:
            run = self._history.run(event.run_id)
            if event.step != CALIBRATE.id:  # the baseline stays the first of the A/A pair
                self._state.model.measured(controller.role, run)
            controller.finished.emit(run)
        self.step.emit(event.step, event.status, event.detail)

    def _report(self, text: str) -> None:
        """Before the first test (an iperf3 install): on the first measuring step's view."""
        first = next(iter(self._measures.values()), None)
        if first is not None:
            first.preparing(text)

    async def _run(self, plan: Plan, guard_seconds: int) -> None:
        state = self._state.model
        session, inventory = state.session, state.inventory
        if session is None or inventory is None:
            raise UserError("Connect and inspect the Pi first.", "Start at Connect.")
        kind, iperf3_path = self._endpoint()
        options = FlowOptions(
            plan=plan,
            nic=state.nic,
            endpoint_kind=kind,
            iperf3_path=iperf3_path,
            guard_seconds=guard_seconds,
            calibrate=self._calibrate,
            allow_link_restart=self._allow_link_restart,
        )
        steps = with_calibration(FIND_FLOW_STEPS if self._find else self._steps, self._calibrate)
        first = next(iter(self._measures.values()), None)
        if self._revert_first and first is not None:
            first.progress.emit("Putting the tuning back, then reading the Pi back…")
        # Never a tuned "before": the tuning goes back (read back untuned) or nothing runs.
        if await settle_before_flow(session, self._history, state, self._revert_first):
            self.tuning_event.emit(
                "The tuning was put back and the Pi reads back untuned: measuring the baseline."
            )
        state.flow_started()

        async def attempt() -> FlowResult:
            return await one_click(
                session,
                inventory,
                options,
                self._history,
                on_event=self._on_event,
                inventory_id=state.inventory_id,
                steps=steps,
            )

        result = await offering_install(session, self._ask_install, self._report, attempt)
        state.flow_finished(result)
        self.finished.emit(result)
