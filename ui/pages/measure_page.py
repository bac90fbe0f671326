"""Steps 3 and 5, Baseline and Measure again: plan chooser, live plots, time left, Cancel.
The plots are measure_plots', how a run ends measure_endings'."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
)

from sbctune.ui.controllers.live import (
    Direction,
    LiveMeasurement,
)
from sbctune.ui.controllers.measurement import (
    MeasureController,
    Plan,
    plan_from_stored,
)
from sbctune.ui.controllers.records import RunRecord, ran_tuned
from sbctune.ui.controllers.state import AppState
from sbctune.ui.pages.measure_boxes import (
    NOTHING_TEXT,
    SHOWN_RUN_TUNED,
    in_force_box,
    nothing_box,
)
from sbctune.ui.pages.measure_endings import RESULTS_TITLE, MeasureEndings
from sbctune.ui.pages.measure_figures import (
    BIG_DIRECTIONS,
    latency_text,
    running_title,
    show_run_figures,
)
from sbctune.ui.pages.plan_box import PlanBox
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import Colors
from sbctune.ui.units import rate
from sbctune.ui.widgets.common import Card, ProblemPanel, label
from sbctune.ui.widgets.lazy import is_built
from sbctune.workflow.estimate import left_text
from sbctune.workflow.rules import measuring_words

REFRESH_MS = 250  # 4 redraws a second: the issue asks for at least two
AGAIN_INTRO = "The same plan as the baseline, now with the tuning in force."
NOTHING_INTRO = "The same plan as the baseline. Nothing is in force on the Pi now."


class MeasurePage(MeasureEndings):
    """The plan, Start and Cancel, the run drawn live; its plots are MeasurePlots', the ends
    of a run MeasureEndings'."""

    go_tune = Signal()  # Measure again with nothing in force: "Go to Tune"

    def __init__(
        self,
        controller: MeasureController,
        state: AppState,
        settings: AppSettings,
        colors: Colors,
    ) -> None:
        self.role = controller.role
        if self.role == "baseline":
            self.title = "3 · Baseline"
            self.intro = (
                "The speed between the Pi and this computer in each direction, before any "
                "change, measured with iperf3. The first seconds of each test (shaded) are left "
                "out: the connection is still speeding up."
            )
        else:
            self.title = "5 · Measure again"
            self.intro = AGAIN_INTRO
        super().__init__()
        self.controller = controller
        self._state = state
        self._settings = settings
        self._controls()
        self._plots(colors)
        self.live: LiveMeasurement | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        controller.started.connect(self.attach)
        controller.finished.connect(self.show_record)
        controller.failed.connect(self._failed)
        controller.stopped_early.connect(self.show_partial)
        controller.progress.connect(self.status.setText)
        controller.cancelled.connect(self._cancelled)
        controller.flow_cancelled.connect(self._flow_cancelled)
        controller.flow_failed.connect(self._flow_failed)
        controller.alone_ended.connect(self._alone_ended)
        self.redraws = 0
        self.partial: RunRecord | None = None  # what a cancelled run kept
        self.stored: RunRecord | None = None  # the run shown, once stored (its big figures)
        self._reverted_first = False  # this run was started by "Revert, then measure"
        controller.ended.connect(self._update_buttons)
        state.tuning_changed.connect(self._update_buttons)
        state.connection_changed.connect(self._update_buttons)

    def _controls(self) -> None:
        """The plan, Start / Cancel, progress, status, problems and the figures now."""
        bar = QHBoxLayout()
        self.plan_box = PlanBox()
        self.plan = self.plan_box.combo
        self.plan.currentIndexChanged.connect(self._plan_picked)
        self.start_button = QPushButton("&Start")
        self.start_button.setObjectName("primary")
        self.start_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(lambda: self.controller.cancel())
        bar.addWidget(label("Plan:", wrap=False))
        bar.addWidget(self.plan, 1)
        bar.addWidget(self.cancel_button)
        bar.addWidget(self.start_button)
        self._in_force_box()
        self.content.addLayout(bar)
        # Why Start waits while the other page's test runs (a second run would share the link).
        self.waits_note = label("", name="muted")
        self.waits_note.setAccessibleName("Why this page waits")
        self.waits_note.hide()
        self.content.addWidget(self.waits_note)
        self.udp_note = label("", name="muted")  # Settings' UDP test, when on
        self.udp_note.setAccessibleName("UDP test of this plan")
        self.content.addWidget(self.udp_note)

        progress_row = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        # No bar before a first run: an empty one under the plan said nothing (walk ux30 at
        # 800 x 600); a run shows it (`attach`).
        self.progress.hide()
        self.remaining = label("", name="muted", wrap=False)
        self.remaining.hide()  # with its bar, which also holds no line of its own before
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.remaining)
        self.content.addLayout(progress_row)
        self.status = label("", name="muted")
        self.content.addWidget(self.status)
        self.problem = ProblemPanel()
        self.content.addWidget(self.problem)

        figures = QHBoxLayout()
        self.now_pi_to_pc = label("–", name="bigFigure", wrap=False)
        self.now_pc_to_pi = label("–", name="bigFigure", wrap=False)
        self.figure_cards: list[tuple[Card, QLabel]] = []
        for direction, widget in zip(
            BIG_DIRECTIONS, (self.now_pi_to_pc, self.now_pc_to_pi), strict=True
        ):
            card = Card(running_title(direction))
            card.body.addWidget(widget)
            figures.addWidget(card)
            self.figure_cards.append((card, widget))
        self.content.addLayout(figures)

    def _in_force_box(self) -> None:
        """Instead of Start when the Pi's tuning is not what this step expects (as read back):
        tuning in force before a baseline, nothing in force before Measure again."""
        box = in_force_box() if self.role == "baseline" else nothing_box()
        self.in_force, self.in_force_text = box.card, box.text
        self.revert_first_button, self.as_is_button = box.first, box.as_is
        self.revert_first_button.clicked.connect(
            self.start_reverted if self.role == "baseline" else self.go_tune
        )
        self.as_is_button.clicked.connect(self.start)
        self.content.addWidget(self.in_force)

    # ------------------------------------------------------------------ plan
    def shown(self) -> None:
        rate = self._settings.udp_rate()
        self.udp_note.setText(
            f"Then a UDP test each way at {rate:g} Mbit/s (jitter and loss; change it in Settings)."
            if rate
            else ""
        )
        self.udp_note.setVisible(bool(rate))
        if self.role == "after" and self._state.baseline is not None:
            baseline = self._state.baseline
            same = plan_from_stored(baseline.plan_name, baseline.plan)
            if same is not None:
                self.plan_box.show(same)
            else:
                self._select_plan(baseline.plan_name)
            self.plan.setEnabled(False)
        elif not self.controller.running and self.live is None:
            self._select_plan(self._settings.default_plan)
        self._update_buttons()

    def _plan_picked(self, _index: int) -> None:
        """The plan picked for a baseline is remembered: the next baseline starts with it."""
        name = self.plan_box.preset_name()
        if self.role == "baseline" and name is not None and name != self._settings.default_plan:
            self._settings.default_plan = name

    def _select_plan(self, name: str) -> None:
        self.plan_box.select(name)

    def chosen_plan(self) -> Plan:
        return self.plan_box.chosen()

    def _update_buttons(self) -> None:
        running = self.timer.isActive()
        connected = self._state.session is not None
        idle = not (running or self.controller.running)
        if self.role == "baseline":
            found = self.controller.tuning_in_force() if idle else None
            if found is not None:
                self.in_force_text.setText(found.notice())
            ask = found is not None
        else:
            ask = idle and self.controller.nothing_in_force()
            self._set_intro(NOTHING_INTRO if ask else AGAIN_INTRO)
            tuned = self.stored is not None and ran_tuned(self.stored)
            self.in_force_text.setText((SHOWN_RUN_TUNED if tuned else "") + NOTHING_TEXT)
        self.in_force.setVisible(ask)
        self.start_button.setVisible(not ask)
        # The flow owns the measuring from its start: before its baseline begins (its checks
        # over SSH, a few seconds) the page offered Start beside "estimating…" (walk 27).
        model = self._state.model
        elsewhere = model.measuring if model.measuring not in (None, self.role) else None
        free = connected and not running and not model.flow_running and elsewhere is None
        self.waits_note.setText(measuring_words(elsewhere) if elsewhere else "")
        self.waits_note.setVisible(elsewhere is not None)
        self.start_button.setEnabled(free)
        for button in (self.revert_first_button, self.as_is_button):
            button.setEnabled(free)
        if not running and self.cancel_button.hasFocus():
            # Disabled with the focus, it would pass it to the next widget and the page would
            # scroll there (walk19: to the CPU chart); the view stays where the user was.
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.cancel_button.setEnabled(running)
        # One job, one Cancel: during Tune & Measure the bar under the page cancels the whole
        # flow; the page's own Cancel beside it was a second one (walk 27), as its bar was.
        self.cancel_button.setVisible(not (running and self._state.model.flow_running))
        self.plan.setEnabled(not running and self.role == "baseline")

    def _set_intro(self, text: str) -> None:
        intro = self.findChild(QLabel, "pageIntro")
        if intro is not None and intro.text() != text:
            intro.setText(text)

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        self._reverted_first = False
        self.controller.start(self.chosen_plan())

    def start_reverted(self) -> None:
        """Revert every tuning on the Pi, read it back, then measure the baseline."""
        self.in_force.hide()
        self.start_button.show()
        self._reverted_first = True
        self.controller.start(self.chosen_plan(), revert_first=True)

    def show_still(self, live: LiveMeasurement) -> None:
        """A finished live view, drawn once (the self-test's sample data)."""
        self.attach(live)
        self.timer.stop()
        self.live_fit.running(False)
        self._update_buttons()

    def attach(self, live: LiveMeasurement) -> None:
        self.live = live
        # A new run starts at the page's top (its Cancel, progress and figures): the page kept
        # the last run's scroll, so a one-click flow ran out of sight (s10 walk, 800x600).
        self.verticalScrollBar().setValue(0)
        self.plots_empty.hide()
        for card in self.plot_cards:
            card.show()
        self.partial = None
        self.stored = None
        self.problem.clear()
        self.results_card.hide()
        self.results_card.title.setText(RESULTS_TITLE)
        self.results_note.hide()
        self.in_force.hide()
        for (card, _big), direction in zip(self.figure_cards, BIG_DIRECTIONS, strict=True):
            card.title.setText(running_title(direction))
        self.plan_box.show(live.plan)
        self.throughput.set_live(live)
        self.latency.set_live(live)
        # One job, one bar: during Tune & Measure the bar under the page counts the whole flow,
        # this run included; a second bar and time left here was a second count (walk 15).
        alone = not self._state.model.flow_running
        self.bar_running()
        self.progress.setVisible(alone)
        self.remaining.setVisible(alone)
        self.timer.start()
        self.live_fit.running(True)
        self.refresh()
        self._update_buttons()

    def refresh(self) -> None:
        live = self.live
        if live is None:
            return
        self.redraws += 1
        self.throughput.refresh()
        self.latency.refresh()
        if self.timer.isActive():  # afterwards the label holds the run's verdicts
            self.latency_now.setText(latency_text(*live.latest_latency(), live.latency_lost))
        self.cpu.show_sample(live.load)
        self._cpu_words(live.load.lab_cpu if live.load is not None else None)
        units = self._settings.units
        bigs: list[tuple[Direction, QLabel]] = [
            ("pi_to_pc", self.now_pi_to_pc), ("pc_to_pi", self.now_pc_to_pi),
        ]  # fmt: skip
        for direction, big in bigs:
            waiting = live.waiting(direction) if self.timer.isActive() else None
            big.setText(waiting or rate(live.latest(direction), units))
        if self.stored is not None:  # the run is stored: the table's figures (a units change)
            show_run_figures(self.figure_cards, self.stored, units)
        self.progress.setValue(int(live.progress() * 1000))
        # Past its plan, a test still running says "finishing…", never "0:00 left".
        self.remaining.setText(left_text(live.remaining_seconds(), self.timer.isActive()))
        self.status.setText(live.status())

    def set_units(self) -> None:
        if is_built(self.throughput):  # else it is made in the new units
            self.throughput.set_units(self._settings.units)
        self.refresh()
