"""The main window's part in the one-click flow and the single steps: which page each step
shows, what the status bar says, where the path goes when a step ends."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from sbctune.ui.main_window_parts import WindowParts
from sbctune.ui.main_window_path import SHOWN_ON, STEP_PAGE
from sbctune.wording import counted

if TYPE_CHECKING:
    from sbctune.history.records import DeviceRecord, RunRecord
    from sbctune.measure.plans import Plan
    from sbctune.workflow import ConnectedInfo, FlowResult, Problem


ONE_AT_A_TIME = (
    "A measurement is running: wait for it to end, or cancel it, before starting another."
)
REFUSAL_SHOWN_MS = 30_000


class FlowSteps(WindowParts):
    """Following the steps: connected, measured, tuned, the flow's progress and its end."""

    def _connected(self, info: ConnectedInfo) -> None:
        # Tuning an earlier sbctune left on the Pi would skew a baseline: settle it first.
        self.go("tune" if info.tuning_leftover is not None else "inspect")

    def _connect_saved(self, device: DeviceRecord) -> None:
        self.connect_page.fill(device.host, device.port, device.user)
        self.go("connect")

    def _disconnect(self) -> None:
        self.runner.start(self.connection.close_session(), name="disconnect")

    def _one_running(self) -> bool:
        """A measurement runs already (one at a time): show it, and say so, rather than start
        another over its view (s13 walk: Tune & Measure during a baseline hid the baseline's
        plot and its Cancel while it went on out of sight)."""
        running = next((key for key, controller in (("baseline", self.baseline),
                                                    ("again", self.again))
                        if controller.running), None)  # fmt: skip
        if running is None or self.flow.running:  # the flow's own steps go on as they do
            return False
        self.go(running)
        # Until that measurement ends (`_refusal_over`), and not for the rest of the session
        # (walk 14: it stayed after "Done.", on every page).
        self.statusBar().showMessage(ONE_AT_A_TIME, REFUSAL_SHOWN_MS)
        return True

    def _refusal_over(self, *_args: object) -> None:
        """The measurement that made a second one wait has ended: its refusal goes."""
        if self.statusBar().currentMessage() == ONE_AT_A_TIME:
            self.statusBar().clearMessage()

    def _measure_only(self) -> None:
        if self._one_running():
            return
        self.go("baseline")
        if self.baseline.tuning_in_force() is None:  # else the page asks first (walk 14)
            self.baseline_page.start()

    def _measure_again(self) -> None:
        if self._one_running():
            return
        self.go("again")
        if not self.again.nothing_in_force():  # else the page says so first (walk 15)
            self.again_page.start()

    def tune_and_measure(self, plan: Plan | None = None, *, ask: bool = True) -> None:
        """The one click: baseline, the safe tweaks under the guard, measure again, results.
        `plan`: the Baseline page's choice (with Settings' UDP test) unless given (the demo's).
        `ask`: tweaks it would hold back for the link are offered first (the scripted demo
        does not ask: they stay held back, and its results say so)."""
        if self._one_running():
            return
        chosen = plan or self.baseline.planned(self.baseline_page.chosen_plan())

        def start(allow: bool, revert_first: bool) -> None:
            self.go("baseline")
            self._flow_started_at = time.monotonic()
            self.flow.start(chosen, calibrate=self.settings.calibrate_flow,
                            allow_link_restart=allow, revert_first=revert_first)  # fmt: skip
            self.flow_timer.start()
            self._update_next()

        what = "Tune & Measure"
        self._untuned_first(what, lambda revert: self._with_link_consent(
            what, lambda allow: start(allow, revert), ask), ask)  # fmt: skip

    def find_what_helps(self) -> None:
        """Each recommended tweak alone, with the Baseline page's plan; the time it takes is
        said before it starts (and the time left at each step, on the Tune page's log)."""
        from sbctune.workflow.attributing import estimate_seconds, plan_seconds
        from sbctune.workflow.estimate import left_text

        if self._one_running():
            return
        chosen = self.baseline.planned(self.baseline_page.chosen_plan())
        plan = self.tuning.plan
        count = sum(i.applicable and i.tweak.recommended and not i.tweak.advanced
                    for i in plan.items) if plan else 0  # fmt: skip

        def start(allow: bool, revert_first: bool) -> None:
            if count:
                seconds = estimate_seconds(chosen, count) + plan_seconds(chosen)
                self.statusBar().showMessage(  # in the progress bar's own words
                    f"Find what helps: a baseline and {counted(count, 'tweak')} one at a time, "
                    f"{left_text(seconds, running=False)}"
                )
            self.go("baseline")
            self._flow_started_at = time.monotonic()
            self.flow.start(chosen, find=True, tweaks=count, allow_link_restart=allow,
                            revert_first=revert_first)  # fmt: skip
            self.flow_timer.start()
            self._update_next()

        what = "Find what helps"
        self._untuned_first(what, lambda revert: self._with_link_consent(
            what, lambda allow: start(allow, revert)))  # fmt: skip

    def _untuned_first(self, what: str, go: Callable[[bool], None], ask: bool = True) -> None:
        """Never a tuned "before": with tuning in force on the Pi (as the session read it back),
        ask first whether to revert it (then `go(True)`: the flow puts it back and reads the Pi
        back before its baseline) or cancel. The scripted demo (`ask` False) reverts first."""
        check = self.flow.before_baseline()
        if check.decision == "start":
            go(False)
            return
        if not ask:
            go(True)
            return
        from sbctune.ui.widgets.flow_in_force_question import FlowInForceQuestion

        def revert() -> None:
            self.in_force_question = None
            go(True)

        self.in_force_question = FlowInForceQuestion(self, what, check, revert)
        self.in_force_question.open()

    def _with_link_consent(
        self, what: str, start: Callable[[bool], None], ask: bool = True
    ) -> None:
        """Start the flow; first, when its plan would hold tweaks back because they drop the
        link this app reaches the Pi through, say which and offer the Tune page's consent. A
        consent already given there counts; the answer given here is the Tune page's too."""
        from sbctune.workflow import problem_from
        from sbctune.workflow.link_consent import held_before_run

        state = self.state.model
        session, inventory = state.session, state.inventory
        agreed = self.tuning.allow_link_restart
        if agreed or not ask or session is None or inventory is None or self.flow.running:
            start(agreed)
            return
        nic = state.nic

        def answered(allow: bool) -> None:
            self.consent_question = None
            if not self.tuning.running:
                self.tuning.allow_link_restart = allow
                self.tune_page.consent_decided(allow)  # the rows too, at once
            start(allow)

        async def check() -> None:
            self.statusBar().showMessage("Checking which tweaks would drop the network link…")
            held = await held_before_run(session, inventory, nic)
            self.statusBar().clearMessage()
            if not held:
                start(False)
                return
            from sbctune.tuning.words import tweak_title
            from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion

            titles = [tweak_title(i.tweak.id) for i in held]
            self.consent_question = LinkConsentQuestion(self, what, titles, answered)
            self.consent_question.open()

        self.runner.start(check(), name="link-consent",
                          on_error=lambda exc: self._flow_failed(problem_from(exc)))  # fmt: skip

    def _flow_step(self, step: str, status: str, detail: str) -> None:
        from sbctune.workflow.steps import CALIBRATE

        key = STEP_PAGE.get(step) or SHOWN_ON.get(step, step)
        if status == "started" and key in self.pages:
            self.go(key)
        if step == "tune" or SHOWN_ON.get(step) == "tune":
            self.tune_page.flow_progress(status, detail)
        elif key in self.step_pages:
            self.step_pages[key].flow_progress(status, detail)
        if step == CALIBRATE.id and status == "done":  # the run-to-run spread, in words
            self.baseline_page.status.setText(f"A/A calibration, {detail}")
        if step == "results" and status == "done":
            self.go("results")  # the status bar's words once the flow's verdict is in (below)
        else:
            title = CALIBRATE.title if step == CALIBRATE.id else self.step_titles.get(key, step)
            self.statusBar().showMessage(f"{title}: {status}.", 10000)

    def _flow_finished(self, result: FlowResult) -> None:
        """The flow's end on the status bar. Cut short (Measure again stopped, or its tuning
        changed while it ran), it says so in the Tune card's words (walk19: "finished: see the
        results" showed over a Measure again the link loss had stopped)."""
        from sbctune.history.run_tuning import changed_during_run

        self.go("results")
        after, keep = result.after, result.keep
        if (
            after is not None
            and keep is not None
            and (not after.complete or changed_during_run(after))
        ):
            self.statusBar().showMessage(f"Tune & Measure: {keep.reason}.", 30000)
            return
        # The figures are on the page; the status bar is too narrow for them.
        self.statusBar().showMessage("Tune & Measure finished: see the results.", 10000)

    def _flow_failed(self, problem: Problem) -> None:
        """Shown where the user is; the measure pages stop their live view themselves."""
        self.pages[self.current_key()].show_problem(problem)
        self.tune_page.flow_ended()
        # walk19: the status bar said "Baseline measurement: started." under "Stopped."
        self.statusBar().showMessage("Tune & Measure stopped: the page says why.", 15000)

    def _flow_cancelled(self) -> None:
        # What the flow read back from the Pi after its revert, as the Tune page's log says.
        words = self.flow.cancel_words or "Cancelled."
        self.tune_page.flow_ended()
        self.statusBar().showMessage(words, 15000)

    def _baseline_done(self, record: RunRecord) -> None:
        """A baseline alone: the path goes on to Tune ("Next", focused), not past it; one
        measured again after tuning goes to the results, where before and after meet."""
        if self.state.after is None:
            self._update_next()
        else:
            self._measure_done(record)

    def _measure_done(self, _record: RunRecord) -> None:
        if self.flow.running:
            return
        # On the next turn of the loop: saving the run and drawing the results page
        # are each a short block; together they would be one long one.
        QTimer.singleShot(0, lambda: self.go("results"))
