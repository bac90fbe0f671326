"""Steps 3 and 5, Baseline and Measure again: plan chooser, live plots, time left, Cancel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
)

from sbctune.ui.controllers.live import (
    Direction,
    LabCpu,
    LiveMeasurement,
    latency_verdicts,
)
from sbctune.ui.controllers.measurement import (
    MeasureController,
    Plan,
    in_force_mark,
    not_a_baseline,
    plan_from_stored,
)
from sbctune.ui.controllers.records import RunRecord
from sbctune.ui.controllers.state import AppState
from sbctune.ui.pages.base import Page
from sbctune.ui.pages.measure_boxes import in_force_box, nothing_box
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
from sbctune.ui.widgets.lazy import Lazy, is_built
from sbctune.ui.widgets.live_fit import LiveFit
from sbctune.ui.widgets.plot_heights import CPU_HEIGHT, LATENCY_HEIGHT, THROUGHPUT_HEIGHT
from sbctune.ui.widgets.run_table import RunTable
from sbctune.workflow import Problem
from sbctune.workflow.estimate import left_text

if TYPE_CHECKING:  # imported when a plot is first made: pyqtgraph is a slow import
    from sbctune.ui.widgets.live_plots import CpuLoadPlot, LatencyPlot, ThroughputPlot

CPU_TITLE = "The Pi's CPU, per core"
CPU_NOTE = (
    "Interrupts and packet work are the network's work. One core near 100 % while the "
    "others idle means the NIC's interrupts all land on that core."
)
REFRESH_MS = 250  # 4 redraws a second: the issue asks for at least two
RESULTS_TITLE = "Figures of this run"
REVERTED_FIRST = "The tuning was put back first and read back: nothing was in force."
AGAIN_INTRO = "The same plan as the baseline, now with the tuning in force."
NOTHING_INTRO = "The same plan as the baseline. Nothing is in force on the Pi now."
UNTUNED_DONE = (
    "Measured with nothing in force on the Pi: a second baseline, not the speed with the tuning."
)


class MeasurePage(Page):
    done = Signal(object)  # RunRecord
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
        self.udp_note = label("", name="muted")  # Settings' UDP test, when on
        self.udp_note.setAccessibleName("UDP test of this plan")
        self.content.addWidget(self.udp_note)

        progress_row = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.remaining = label("", name="muted", wrap=False)
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

    # The plots are made when first shown or used (ui/widgets/lazy.py): not at start-up.
    def _throughput_plot(self) -> ThroughputPlot:
        from sbctune.ui.widgets.live_plots import ThroughputPlot

        return ThroughputPlot(self._colors, self._settings.units)

    def _latency_plot(self) -> LatencyPlot:
        from sbctune.ui.widgets.live_plots import LatencyPlot

        throughput = cast(Lazy, self.throughput).real()
        return LatencyPlot(self._colors, cast("ThroughputPlot", throughput))

    def _cpu_plot(self) -> CpuLoadPlot:
        from sbctune.ui.widgets.live_plots import CpuLoadPlot

        return CpuLoadPlot(self._colors)

    def _plots(self, colors: Colors) -> None:
        self._colors = colors
        # Before the first run: words, not empty axes.
        self.plots_empty = label(
            "Once you press Start, the throughput of every second in each direction, the "
            "latency and the Pi's CPU load per core are drawn here as they are measured.",
            name="muted",
        )
        self.content.addWidget(self.plots_empty)
        plot_card = Card("Throughput")
        self.throughput = cast("ThroughputPlot", Lazy(self._throughput_plot, THROUGHPUT_HEIGHT))
        plot_card.body.addWidget(self.throughput)
        plot_card.body.addWidget(
            label(
                "Shaded: omitted seconds (not counted). Dashed line: the link's line rate.",
                name="muted",
            )
        )
        # Latency under load: the Pi's UDP probes to this PC (sbctune.measure.latency).
        self.latency = cast("LatencyPlot", Lazy(self._latency_plot, LATENCY_HEIGHT))
        self.latency.setAccessibleName("Round-trip time of the latency probes")
        plot_card.body.addWidget(self.latency)
        self.latency_now = label("Latency: –", name="muted", wrap=False)
        self.latency_now.setAccessibleName("Latency now")
        plot_card.body.addWidget(self.latency_now)
        self.content.addWidget(plot_card)
        cpu_card = Card(CPU_TITLE)
        self.cpu_card = cpu_card
        self.cpu = cast("CpuLoadPlot", Lazy(self._cpu_plot, CPU_HEIGHT))
        cpu_card.body.addWidget(self.cpu)
        # In the legend's words (the walk of session 10 read "irq and softirq" under a legend
        # that says "interrupts" and "packet work"); the kernel's terms are in the tooltip.
        self.cpu_note = label(CPU_NOTE, name="muted")
        cpu_card.body.addWidget(self.cpu_note)
        self.content.addWidget(cpu_card)
        self.plot_cards = (plot_card, cpu_card)
        for card in self.plot_cards:
            card.hide()
        self.results_card = Card("Figures of this run")
        self.table = RunTable()
        self.table.setAccessibleName("Results of this run per direction")
        self.results_card.body.addWidget(self.table)
        self.results_card.hide()
        self.content.addWidget(self.results_card)
        self.content.addStretch(1)
        # While a test runs the throughput plot is in view, whatever the window's height.
        intro = self.findChild(QLabel, "pageIntro")
        self.live_fit = LiveFit(self, header=intro.parentWidget() if intro else None,
                                figures=self.figure_cards, plot_card=plot_card,
                                plot=self.throughput, height=THROUGHPUT_HEIGHT)  # fmt: skip

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
        self.in_force.setVisible(ask)
        self.start_button.setVisible(not ask)
        self.start_button.setEnabled(connected and not running)
        for button in (self.revert_first_button, self.as_is_button):
            button.setEnabled(connected and not running)
        self.cancel_button.setEnabled(running)
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
        self.in_force.hide()
        for (card, _big), direction in zip(self.figure_cards, BIG_DIRECTIONS, strict=True):
            card.title.setText(running_title(direction))
        self.plan_box.show(live.plan)
        self.throughput.set_live(live)
        self.latency.set_live(live)
        # One job, one bar: during Tune & Measure the bar under the page counts the whole flow,
        # this run included; a second bar and time left here was a second count (walk 15).
        alone = not self._state.model.flow_running
        self.progress.setVisible(alone)
        self.remaining.setVisible(alone)
        self.timer.start()
        self.live_fit.running(True)
        self.refresh()
        self._update_buttons()

    def _cpu_words(self, lab_cpu: LabCpu | None) -> None:
        """In the virtual Pi lab the per-core figures are the lab host's (the lab says so):
        the card says whose cores they are, never "the Pi's"."""
        title = lab_cpu.heading if lab_cpu is not None else CPU_TITLE
        if self.cpu_card.title.text() != title:
            self.cpu_card.title.setText(title)
            self.cpu_note.setText(f"{lab_cpu.note} {CPU_NOTE}" if lab_cpu is not None else CPU_NOTE)

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

    def stop_live(self, message: str) -> None:
        self.timer.stop()
        self.live_fit.running(False)
        self.refresh()
        self.remaining.setText("")  # stopped: nothing is left to run (s13 walk: "about 0:35 left")
        self.status.setText(message)
        self._update_buttons()

    def show_record(self, record: RunRecord) -> None:
        done = "Done." if record.complete else "Done, but some tests did not complete (see below)."
        mark = in_force_mark(record) if self.role == "baseline" else None
        if mark is not None:  # read back from the Pi: never called a baseline
            done = f"{done} {not_a_baseline(record)}"
        elif self.role != "baseline" and in_force_mark(record) is None:
            done = f"{done} {UNTUNED_DONE}"
        elif self._reverted_first:
            done = f"{done} {REVERTED_FIRST}"
        self._reverted_first = False
        self.results_card.title.setText(
            f"{RESULTS_TITLE}: {mark}, not a baseline" if mark is not None else RESULTS_TITLE
        )
        self.stop_live(done)
        self.progress.setValue(1000)
        self.remaining.setText("")
        self.table.show_run(record, self._settings.units)
        self.results_card.show()
        self.stored = record
        show_run_figures(self.figure_cards, record, self._settings.units)
        self.show_latency(record.latency)
        if record.note:
            self.problem.show_problem(record.note)
        # The "Done. …" line in view (walk 15: after "Measure as it is" the page stayed where
        # the live plot had been, its "not a baseline" line above the view).
        QTimer.singleShot(0, self._status_in_view)
        self.done.emit(record)

    def _status_in_view(self) -> None:
        self.ensureWidgetVisible(self.status, 0, 24)

    def show_latency(self, latency: dict[str, Any] | None) -> None:
        """The run's verdicts under the latency plot ("the link queues 18 ms under upload…")."""
        lines = latency_verdicts(latency)
        if lines:
            self.latency_now.setWordWrap(True)
            self.latency_now.setText("\n".join(lines))

    def _failed(self, problem: Problem) -> None:
        self.stop_live("Stopped.")
        self.problem.show_problem(problem.message, problem.hint)

    def show_partial(self, record: RunRecord) -> None:
        """A cancelled run: the tests measured so far, stored in the history, marked incomplete."""
        self.partial = record
        self.table.show_run(record, self._settings.units)
        self.results_card.show()
        self.stored = record
        show_run_figures(self.figure_cards, record, self._settings.units)

    def _cancelled(self) -> None:
        stopped = "iperf3 was stopped on the Pi and on this computer"
        if self.partial is not None:
            self.stop_live(
                f"Stopped early: cancelled by the user; {stopped}. The tests measured so far are "
                f"saved as run {self.partial.id}, marked incomplete."
            )
        else:
            self.stop_live(f"Cancelled: {stopped}; nothing had been measured yet.")

    def _alone_ended(self, live: LiveMeasurement | None, record: RunRecord | None) -> None:
        """The flow measured each tweak alone here: back to the run shown before (the flow's
        Measure again), or, with none, the last of them stays, stopped."""
        if live is None or record is None:
            self.stop_live("Each tweak was measured on its own: see Results.")
            return
        self.show_still(live)
        self.table.show_run(record, self._settings.units)
        self.results_card.show()
        self.stored = record
        show_run_figures(self.figure_cards, record, self._settings.units)
        self.show_latency(record.latency)
        self.progress.setValue(1000)
        self.remaining.setText("")
        self.status.setText("Done.")

    def _flow_failed(self) -> None:
        """The one-click flow stopped with an error (the window shows it where the user is)."""
        if self.timer.isActive():
            self.stop_live("Stopped.")

    def _flow_cancelled(self) -> None:
        if not self.timer.isActive():
            return
        if self.partial is not None:
            self.stop_live(
                "Stopped early: cancelled by the user; iperf3 was stopped and any tuning "
                f"reverted. The tests measured so far are saved as run {self.partial.id}, "
                "marked incomplete."
            )
        else:
            self.stop_live("Cancelled: iperf3 was stopped and any tuning reverted.")

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors  # plots not made yet are made in these colours
        for plot in (self.throughput, self.latency, self.cpu):
            if is_built(plot):
                plot.apply_theme(colors)

    def set_units(self) -> None:
        if is_built(self.throughput):  # else it is made in the new units
            self.throughput.set_units(self._settings.units)
        self.refresh()
