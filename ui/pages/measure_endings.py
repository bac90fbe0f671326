"""How a run ends on the Measure page (split from measure_page.py): done and stored, stopped by
an error, cancelled (with what it measured so far), each tweak measured alone by the
one-click flow, or the flow failed or cancelled; the widgets are made by MeasurePage."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QProgressBar

from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.measurement import in_force_mark, not_a_baseline
from sbctune.ui.controllers.records import RunRecord
from sbctune.ui.pages.measure_figures import show_run_figures
from sbctune.ui.pages.measure_plots import MeasurePlots
from sbctune.ui.widgets.common import ProblemPanel
from sbctune.workflow import Problem

RESULTS_TITLE = "Figures of this run"
REVERTED_FIRST = "The tuning was put back first and read back: nothing was in force."
UNTUNED_DONE = (
    "Measured with nothing in force on the Pi: a second baseline, not the speed with the tuning."
)


def done_words(record: RunRecord) -> str:
    """A stored run's first words, with where it went, as the CLI says it ("Saved as run 7 in
    the history") and as a cancelled run's words do: "Done." alone left the user to find the
    run among History's (walk 27)."""
    saved = f"saved as run {record.id}" if record.id is not None else ""
    if record.complete:
        return f"Done: {saved}." if saved else "Done."
    done = "Done, but some tests did not complete (see below)"
    return f"{done}; {saved}." if saved else f"{done}."


class MeasureEndings(MeasurePlots):
    """The ends of a run; MeasurePage starts it, draws it live and wires these to its
    controller."""

    done = Signal(object)  # RunRecord

    role: str
    timer: QTimer
    progress: QProgressBar
    remaining: QLabel
    status: QLabel
    results_note: QLabel
    problem: ProblemPanel
    partial: RunRecord | None
    stored: RunRecord | None
    _reverted_first: bool

    def refresh(self) -> None:
        raise NotImplementedError

    def _update_buttons(self) -> None:
        raise NotImplementedError

    def show_still(self, live: LiveMeasurement) -> None:
        raise NotImplementedError

    def stop_live(self, message: str) -> None:
        self.timer.stop()
        self.live_fit.running(False)
        self.refresh()
        self.remaining.setText("")  # stopped: nothing is left to run (s13 walk: "about 0:35 left")
        self.status.setText(message)
        self._update_buttons()

    def bar_stopped(self, words: str) -> None:
        """The bar of a run that did not finish says so (walk ux29: a cancelled baseline's bar
        stayed blue and part-filled, as a test still under way looks): greyed, where it
        stopped, with the words in it."""
        self.progress.setEnabled(False)
        # Greyed whatever the style: Fusion draws a disabled bar's part done in the same blue
        # (seen on X after the first fix: "Cancelled" on a blue bar still looked under way).
        palette = self.progress.palette()
        grey = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Mid)
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Highlight, grey)
        self.progress.setPalette(palette)
        self.progress.setFormat(words)
        self.progress.setTextVisible(True)
        self.progress.setAccessibleDescription(words)

    def bar_running(self) -> None:
        self.progress.setEnabled(True)
        self.progress.setFormat("%p%")
        self.progress.setTextVisible(False)
        self.progress.setAccessibleDescription("")

    def show_record(self, record: RunRecord) -> None:
        done = done_words(record)
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

    def _failed(self, problem: Problem) -> None:
        self.stop_live("Stopped.")
        self.bar_stopped("Stopped by an error")
        self.problem.show_problem(problem.message, problem.hint)

    def show_partial(self, record: RunRecord) -> None:
        """A cancelled run: the tests measured so far, stored in the history, marked incomplete."""
        self.partial = record
        self.table.show_run(record, self._settings.units)
        self.results_card.show()
        self.stored = record
        show_run_figures(self.figure_cards, record, self._settings.units)

    def _stopped(self, words: str) -> None:
        """A cancelled run: the words on the status line and, with what it measured, above its
        figures too (walk19: the page had scrolled there and only the status bar said it)."""
        self.stop_live(words)
        if self.partial is not None:
            self.results_note.setText(words)
            self.results_note.show()

    def _cancelled(self) -> None:
        self.bar_stopped("Cancelled")
        stopped = "iperf3 was stopped on the Pi and on this computer"
        if self.partial is not None:
            self._stopped(
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
            self.bar_stopped("Stopped by an error")

    def _flow_cancelled(self) -> None:
        if not self.timer.isActive():
            return
        self.bar_stopped("Cancelled")
        if self.partial is not None:
            self._stopped(
                "Stopped early: cancelled by the user; iperf3 was stopped and any tuning "
                f"reverted. The tests measured so far are saved as run {self.partial.id}, "
                "marked incomplete."
            )
        else:
            self.stop_live("Cancelled: iperf3 was stopped and any tuning reverted.")
