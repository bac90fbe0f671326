"""Baseline / Measure again: sbctune.workflow's `measure_and_keep`, shown live on a page.

Cancel stops both sides (the runner does) and, like the CLI's Ctrl-C, keeps what was measured
(the workflow stores it, marked incomplete; `stopped_early` shows it). When the one-click flow
runs the measurement instead, the flow controller drives the live view through `begin_live`,
Cancel cancels the flow, and `flow_ended` tells the page how the flow ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import QObject, Signal

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.measure.install import InstallPlan
from sbctune.measure.pc_endpoint import EndpointKind
from sbctune.measure.plans import Plan, plan_from_stored, plan_named, plan_title, presets
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import Role, problem_from
from sbctune.workflow.baseline_check import (
    TuningInForce,
    in_force_mark,
    not_a_baseline,
    revert_for_baseline,
    tuning_in_force,
)
from sbctune.workflow.measuring import Measured, MeasureRequest, measure_and_keep
from sbctune.workflow.rules import InstallAsker, never_install

# What the measure and settings pages name (they never import the core's measure package).
__all__ = [
    "EndpointKind",
    "InstallAsker",
    "InstallPlan",
    "MeasureController",
    "Plan",
    "Role",
    "TuningInForce",
    "in_force_mark",
    "not_a_baseline",
    "plan_from_stored",
    "plan_named",
    "plan_title",
    "presets",
]

FlowEnd = Literal["cancelled", "failed"]


class MeasureController(QObject):
    """One per page: `started(live)`, then `finished(record)` or `failed(problem)`; a cancel
    gives `stopped_early(record)` (when anything was measured) and then `cancelled()`."""

    started = Signal(object)  # LiveMeasurement
    finished = Signal(object)  # RunRecord
    failed = Signal(object)  # Problem
    stopped_early = Signal(object)  # RunRecord: the tests so far, stored, marked incomplete
    progress = Signal(str)  # before the tests: installing iperf3 on the Pi
    cancelled = Signal()
    flow_cancelled = Signal()  # the one-click flow running this step was cancelled
    flow_failed = Signal()  # ... or stopped with an error (shown where the user is)
    ended = Signal()  # the run's task is over, however it ended (the page offers a new one)
    # The flow measured tweaks one at a time on this page (MeasuringAlone): the page goes back
    # to the run it showed before (LiveMeasurement, RunRecord), or (None, None) just stops.
    alone_ended = Signal(object, object)

    def __init__(
        self,
        role: Role,
        state: AppState,
        runner: TaskRunner,
        history: History,
        endpoint: Callable[[], tuple[EndpointKind, str | None]],
        ask_install: InstallAsker = never_install,
        udp: Callable[[], float | None] = lambda: None,
    ) -> None:
        """`udp`: the rate of Settings' UDP test, read when a run starts (None: no UDP)."""
        super().__init__()
        self._udp = udp
        self.role = role
        self._state = state
        self._runner = runner
        self._history = history
        self._endpoint = endpoint
        self._ask_install = ask_install
        self._task: asyncio.Task[None] | None = None
        self._flow_cancel: Callable[[], None] | None = None  # the flow runs this step
        self.live: LiveMeasurement | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def planned(self, plan: Plan) -> Plan:
        """The plan as it runs: with a UDP test per direction after its TCP tests when Settings
        ask for one (`Plan.with_udp`, as `sbctune measure --udp`)."""
        return plan.with_udp(self._udp())

    def tuning_in_force(self) -> TuningInForce | None:
        """The tuning the Pi runs with now, as this session read it back (None: none). Only a
        Baseline asks: Measure again is meant to run with it."""
        model = self._state.model
        if self.role != "baseline" or model.flow_running or model.session is None:
            return None
        return tuning_in_force(model)

    def nothing_in_force(self) -> bool:
        """Measure again, with nothing in force on the Pi as this session read it back (walk
        15, problem 1): the run would be a second baseline, not the tuned speed."""
        model = self._state.model
        if self.role != "after" or model.flow_running or model.session is None:
            return False
        return tuning_in_force(model) is None

    def start(self, plan: Plan, revert_first: bool = False) -> None:
        """`revert_first`: put back every tuning on the Pi and read it back, then measure."""
        if self.running:
            return
        self._task = self._runner.start(
            self._run(plan, revert_first),
            name=f"measure-{self.role}",
            on_error=lambda exc: self.failed.emit(problem_from(exc)),
        )
        # The other page waits meanwhile, and Tune's Apply (`WorkflowState.measuring`).
        self._state.model.measuring_changed(self.role)
        self._task.add_done_callback(self._ended)

    def cancel(self) -> None:
        if self._flow_cancel is not None:
            self._flow_cancel()
        elif self._task is not None and not self._task.done():
            self._task.cancel()

    async def wait(self) -> None:
        """For tests and shutdown: until the task (and its clean-up) is over."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def _ended(self, task: asyncio.Task[None]) -> None:
        if self._state.model.measuring == self.role:
            self._state.model.measuring_changed(None)
        if task.cancelled():
            self.cancelled.emit()
        self.ended.emit()

    # ------------------------------------------------------------------ driven by the flow
    def begin_live(self, plan: Plan) -> LiveMeasurement:
        """A fresh live view (also used by the one-click flow, which runs the measurement)."""
        nic = self._state.selected_nic
        line_rate = nic.link_speed_mbps or nic.max_link_speed_mbps if nic else None
        self.live = LiveMeasurement(plan, float(line_rate) if line_rate else None)
        self.started.emit(self.live)
        return self.live

    def driven_by(self, cancel: Callable[[], None] | None) -> None:
        """The one-click flow runs this step from now (`cancel` stops the flow), or no more."""
        self._flow_cancel = cancel

    def flow_ended(self, how: FlowEnd) -> None:
        self._flow_cancel = None
        (self.flow_cancelled if how == "cancelled" else self.flow_failed).emit()

    def preparing(self, text: str) -> None:
        """What happens before the first test (an install), on the live view and at once."""
        if self.live is not None:
            self.live.set_preparing(text)
        self.progress.emit(text)

    # ------------------------------------------------------------------ on its own
    async def _run(self, plan: Plan, revert_first: bool = False) -> None:
        state = self._state.model
        session = state.session
        if session is None:
            raise UserError("Not connected to a Pi.", "Go to Connect first.")
        if revert_first:
            self.progress.emit("Putting the tuning back, then reading the Pi back…")
            await revert_for_baseline(session, self._history)
            state.reverted_for_baseline()
            self.progress.emit("The tuning is put back and nothing is in force: measuring.")
        nic = state.selected_nic
        plan = self.planned(plan)  # in the task: a refused rate shows as the page's problem
        live = self.begin_live(plan)
        kind, iperf3_path = self._endpoint()
        request = MeasureRequest(
            plan,
            nic=state.nic,
            nic_irqs=tuple(nic.irqs) if nic else (),
            endpoint=kind,
            iperf3_path=iperf3_path,
            inventory_id=state.inventory_id,
        )

        def partial(kept: Measured) -> None:
            state.kept_partial(kept.record)
            self.stopped_early.emit(kept.record)

        state.hold_guard(True)  # the workflow holds an armed session's guard while it runs
        try:
            measured = await measure_and_keep(
                session,
                self._history,
                request,
                on_event=live.feed,
                ask_install=self._ask_install,
                report=self.preparing,
                on_partial=partial,
                on_hold=state.holding,
            )
        finally:
            state.hold_guard(False)
        state.measured(self.role, measured.record)
        # The guard held through the run counts down afresh; a fired one shows as reverted.
        state.tuning_read_back(measured.record, measured.hold.deadline if measured.hold
                                     else None)  # fmt: skip
        self.finished.emit(measured.record)
