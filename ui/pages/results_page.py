"""Step 6, Results: before/after table and chart, findings, recommendations, export, keep/revert."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent
from PySide6.QtSvgWidgets import QSvgWidget
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from sbctune.ui.controllers.exporting import ExportController, default_folder
from sbctune.ui.controllers.inspection import Finding, Recommendation
from sbctune.ui.controllers.records import RecordsController, RunRecord
from sbctune.ui.controllers.results import (
    latency_rows,
    on_trial_verdict,
    result_rows,
    udp_rows,
)
from sbctune.ui.controllers.state import AppState
from sbctune.ui.controllers.tuning import AppliedSession, TuningController
from sbctune.ui.pages.results_export import FORMAT_TITLE, ResultsExporting
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.advice_cards import AdviceView
from sbctune.ui.widgets.common import Card, ProblemPanel, label
from sbctune.ui.widgets.desktop_open import DesktopOpener
from sbctune.ui.widgets.lazy import compare_chart
from sbctune.ui.widgets.line_list import LineList
from sbctune.ui.widgets.run_table import CompareTable
from sbctune.workflow.baseline_check import before_after
from sbctune.workflow.rules import TuningState, apply_blocked, kept_tweaks
from sbctune.workflow.tuning_words import (
    change_text,
    changed_during_run,
    contribution_lines,
    drift_words,
    held_note,
    outcome_lines,
    tweak_title,
    waterfall_svg,
)

FIND_TIP = (
    "Measure a baseline, then each recommended tweak on its own with the Baseline page's plan "
    "(one measurement per tweak; the time is shown before it starts), and keep only those "
    "that helped beyond noise."
)


class ResultsPage(ResultsExporting):
    find_requested = Signal()  # "Find what helps" (the main window starts the flow)
    baseline_requested = Signal()  # "Measure a baseline" (the main window opens Baseline)

    title = "6 · Results"
    intro = "What changed, what still limits this Pi, and what would do better."

    def __init__(
        self,
        state: AppState,
        settings: AppSettings,
        tuning: TuningController,
        exporter: ExportController,
        colors: Colors,
        records: RecordsController,
    ) -> None:
        super().__init__()
        self._records = records
        self._state = state
        self._settings = settings
        self._tuning = tuning
        self._exporter = exporter
        self._opener = DesktopOpener(self)
        self._shown_key: object = None
        self._shown_runs: tuple[int | None, ...] = ()
        self.empty = label("No results yet: measure a baseline first.", name="muted")
        self.content.addWidget(self.empty)
        self.content.addWidget(self._table_card(colors))
        self.content.addWidget(self._tuning_card())
        self.advice = AdviceView(colors)
        self.content.addWidget(self.advice)
        self._export_card(exporter)
        self.problem = ProblemPanel()
        self.replace_question: QMessageBox | None = None  # open while asking to replace files
        self.content.addWidget(self.problem)
        self.content.addStretch(1)
        self._wire(state, tuning, exporter)

    def _table_card(self, colors: Colors) -> Card:
        """The figures: before and after as a table and a chart, why there is no "before" (with
        the way to measure one), and "Find what helps"."""
        self.table_card = Card("Before and after")
        self.table = CompareTable()
        self.table.setAccessibleName("Before and after: throughput per direction")
        self.chart = compare_chart(colors)
        # No baseline, or one measured with tuning in force: said, with the way to measure one.
        self.no_baseline = label("", selectable=True)
        self.no_baseline.setAccessibleName("Why there is nothing to compare with")
        self.baseline_button = QPushButton("Measure a base&line")
        baseline_row = QHBoxLayout()
        baseline_row.addWidget(self.baseline_button)
        baseline_row.addStretch(1)
        self.table_card.body.addWidget(self.no_baseline)
        self.table_card.body.addLayout(baseline_row)
        self.table_card.body.addWidget(self.table)
        self.table_card.body.addWidget(self.table.change_below)
        self.table_card.body.addWidget(self.chart)
        self.table_card.body.addWidget(
            label(
                "Bars: each run's mean; the thin line on a bar: its 95 % interval, from the "
                "trials. Latency: the delay added under load, with its bufferbloat grade "
                "(DSLReports' scale, A+ best to F worst).",
                name="muted",
            )
        )
        # The seeds' method: each recommended tweak alone, measured, only the helpful kept.
        self.find_button = QPushButton("Find &what helps")
        self.find_button.setToolTip(FIND_TIP)
        self.table_card.body.addWidget(self.find_button)
        return self.table_card

    def _tuning_card(self) -> Card:
        """The tuning applied: what it is and did, each tweak's part, Keep / Keep across reboot
        / Revert."""
        self.tuning_card = Card("The tuning")
        # What each tweak did, one a line hanging under its start (walk ux30, as on Tune).
        self._outcome_lines: set[str] = set()
        self.tuning_text = LineList(hangs=lambda line: line in self._outcome_lines)
        self.tuning_text.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # read out after Revert
        self.tuning_card.body.addWidget(self.tuning_text)
        self.waterfall = QSvgWidget()  # what each tweak did alone (sbctune.compare.waterfall)
        self.waterfall.setAccessibleName("What each tweak did on its own, as a waterfall chart")
        self.waterfall.setMinimumHeight(220)
        self.waterfall.hide()
        self.tuning_card.body.addWidget(self.waterfall)
        row = QHBoxLayout()
        self.keep_button = QPushButton("&Keep")
        self.keep_button.setToolTip("Keep the tweaks until the Pi restarts.")
        self.persist_button = QPushButton("Keep across &reboot")
        self.revert_button = QPushButton("Re&vert")
        for button in (self.revert_button, self.keep_button, self.persist_button):
            row.addWidget(button)
        row.addStretch(1)
        self.tuning_card.body.addLayout(row)
        return self.tuning_card

    def _wire(self, state: AppState, tuning: TuningController, exporter: ExportController) -> None:
        """The page's buttons, and what the controllers and the state report."""
        self._opener.failed.connect(self._not_opened)
        self.baseline_button.clicked.connect(self.baseline_requested.emit)
        self.find_button.clicked.connect(self.find_requested.emit)
        self.keep_button.clicked.connect(self._keep)
        self.persist_button.clicked.connect(self._persist)
        self.revert_button.clicked.connect(tuning.revert)
        exporter.exported.connect(self._exported)
        exporter.failed.connect(self._failed)
        tuning.failed.connect(self._failed)
        tuning.confirmed.connect(lambda _id: self.shown())
        tuning.reverted.connect(lambda _id: self.shown())
        tuning.busy.connect(lambda busy, text: self.tuning_text.setText(text) if busy else None)
        # The guard can run out (or the flow settle it) while the user reads this page: the
        # card must not keep offering Keep for settings the Pi has already put back.
        state.tuning_changed.connect(self._tuning_changed)

    def _export_card(self, exporter: ExportController) -> None:
        """A folder, one button per format this computer can write, and what was written."""
        self.export_card = Card("Export")
        folder_row = QHBoxLayout()
        self.folder = QLineEdit(str(default_folder()))
        self.folder.setAccessibleName("Export folder")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse)
        folder_row.addWidget(label("Folder:", wrap=False))
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        self.export_card.body.addLayout(folder_row)
        grid = QGridLayout()
        self.export_buttons: dict[str, QPushButton] = {}
        for i, fmt in enumerate(exporter.formats()):
            button = QPushButton(FORMAT_TITLE.get(fmt, fmt.upper()))
            button.setObjectName(f"export-{fmt}")
            button.clicked.connect(lambda _=False, f=fmt: self.export([f]))
            self.export_buttons[fmt] = button
            grid.addWidget(button, i // 4, i % 4)
        self.export_card.body.addLayout(grid)
        self.export_all = QPushButton("Export &all")
        self.export_all.clicked.connect(
            lambda: self.export([f for f, b in self.export_buttons.items() if b.isEnabled()])
        )
        self.export_card.body.addWidget(self.export_all)
        self.export_log = label("", name="muted", selectable=True)
        self.export_card.body.addWidget(self.export_log)
        # A format that could not be written says so here, beside the lines of those that were
        # (at the page's top it pulled the view away from them).
        self.export_problem = ProblemPanel()
        self.export_card.body.addWidget(self.export_problem)
        # After an export: open what was written, or its folder, with the desktop's own apps.
        self._last_export = Path()
        self.opened = QWidget()
        opened_row = QHBoxLayout(self.opened)
        opened_row.setContentsMargins(0, 0, 0, 0)
        self.open_button = QPushButton("&Open the last file")
        self.open_button.clicked.connect(lambda: self._open(self._last_export))
        self.show_folder_button = QPushButton("Show in fold&er")
        self.show_folder_button.clicked.connect(lambda: self._open(self._last_export.parent))
        # The folder's path to paste into a file manager (for when no program opens it).
        self.copy_path_button = QPushButton("Cop&y the folder's path")
        self.copy_path_button.clicked.connect(self._copy_folder_path)
        for button in (self.open_button, self.show_folder_button, self.copy_path_button):
            opened_row.addWidget(button)
        opened_row.addStretch(1)
        self.opened.setVisible(False)
        self.export_card.body.addWidget(self.opened)
        self._follow_export = False
        self.verticalScrollBar().rangeChanged.connect(lambda *_: self._range_changed())
        self.verticalScrollBar().actionTriggered.connect(lambda *_: self._stop_following())
        self.content.addWidget(self.export_card)

    # ------------------------------------------------------------------ showing
    def runs(self) -> list[RunRecord]:
        return self._state.runs

    def export_ids(self) -> list[int]:
        """With each tweak's own run when Find what helps told them apart: the Results show
        that table, so the export does too (it held only the before and after)."""
        ids = super().export_ids()
        found = self._state.model.attribution
        return ids + [i for i in (found.run_ids() if found else []) if i not in ids]

    def _key(self) -> object:
        state = self._state
        return (
            tuple(r.id for r in self.runs()),
            state.tuning_state,
            id(state.tuning),
            id(state.model.keep),
            id(state.model.attribution),
            state.model.held_for_link,
            state.model.flow_running,
            id(state.advice),
            id(state.inventory),
            state.session is not None,
            self._settings.units,
        )

    def shown(self) -> None:
        # Rebuilding the cards costs tens of ms: only when what they show has changed.
        if self._key() == self._shown_key:
            return
        runs = tuple(r.id for r in self.runs())
        self._render()
        self._shown_key = self._key()
        if runs != self._shown_runs:
            # Other runs: read from the top (the figures, or the tuning on trial and its Keep),
            # not at the last runs' scroll (s10 walk: after a one-click flow the page opened
            # half-way down); the last export's line and buttons were the other runs'.
            self._shown_runs = runs
            self.verticalScrollBar().setValue(0)
            self.export_log.setText("")
            self.opened.setVisible(False)

    def _render(self) -> None:
        runs = self.runs()
        self.empty.setVisible(not runs)
        self.table_card.setVisible(bool(runs))
        self.export_card.setVisible(bool(runs))
        if runs:
            # A "before" only when it is a baseline (walk 14: problems 2 and 9c).
            words = before_after(self._state.baseline, self._state.after)
            self.table_card.title.setText(words.title)
            self.table.setAccessibleName(f"{words.title}: throughput per direction")
            self.no_baseline.setText(words.note)
            self.no_baseline.setVisible(bool(words.note))
            self.baseline_button.setVisible(words.offer_baseline)
            labels = words.labels
            rows = result_rows(runs, self._records.calibration(runs))
            self.table.show_rows(
                labels, rows, self._settings.units, latency_rows(runs), udp_rows(runs)
            )
            self.chart.show_rows(labels, rows, self._settings.units, words.first_colour)
        self._show_tuning()
        ready = self._state.session is not None and self._state.inventory is not None
        blocked = apply_blocked(
            self._state.tuning_state, self._state.model.flow_running, self._state.model.measuring
        )
        self.find_button.setEnabled(ready and blocked is None)
        # Greyed out, it says why (walk 18: on trial it was grey with only what it would do).
        why = blocked if ready else "Connect to the Pi and inspect it first (steps 1 and 2)."
        self.find_button.setToolTip(f"{FIND_TIP}\n\nNot now: {why}" if why else FIND_TIP)
        # The advice cards next turn of the loop: the figures show first, the window stays live.
        QTimer.singleShot(0, self._render_advice)
        for fmt, button in self.export_buttons.items():
            ok = self._exporter.available(fmt)
            why = "" if ok else "This format cannot be written here."
            if ok and fmt == "ansible" and self._state.tuning_state != "confirmed":
                ok, why = False, "A playbook needs tweaks you kept: tune and keep them first."
            button.setEnabled(ok)
            button.setToolTip(why)

    def _render_advice(self) -> None:
        findings, recommendations = self._advice()
        self.advice.show_advice(findings, recommendations)
        self._shown_key = self._key()  # computing the advice changed the key

    def _advice(self) -> tuple[list[Finding], list[Recommendation]]:
        advice = self._state.model.advice_now()
        if advice is not None:
            return list(advice.findings), list(advice.recommendations)
        inventory = self._state.inventory
        if inventory is not None:
            return list(inventory.findings), list(inventory.recommendations)
        return [], []

    def _measured_lines(self) -> list[str]:
        """What the measurement said of the tuning: kept or not, each tweak alone, and a run
        whose tuning changed while it ran (read back from the Pi)."""
        model = self._state.model
        lines = [f"Tune & Measure: {model.keep.reason}"] if model.keep else []
        found = model.attribution
        if found is not None:
            lines += ["What each tweak did on its own (vs the baseline, 95 % interval):"]
            lines += [f"  {line}" for line in contribution_lines(found.contributions)]
            if moved := drift_words(found.contributions):
                lines.append(f"  {moved}")
            lines += [f"  {tweak}: {why}" for tweak, why in found.not_measured.items()]
        if model.held_for_link:  # left out for the link: said, not silently absent
            lines.append(held_note(model.held_for_link))
        for run in self.runs():
            if changed_during_run(run):
                lines.append(f"Run {run.id}: {change_text(run)}. Not a fair before or after.")
        return lines

    def _tuning_changed(self) -> None:
        if self.isVisible():
            self.shown()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._follow_export = False  # the export's lines are followed only while in view
        if self._state.tuning_state != "guarded":
            self._place_tuning_card(False)

    def _place_tuning_card(self, first: bool) -> None:
        """On trial, the tuning card comes before the figures: Keep is the decision the user
        must make before the countdown ends, and a small window hides what lies below."""
        before = self.content.indexOf(self.tuning_card) < self.content.indexOf(self.table_card)
        if before == first:
            return
        self.content.removeWidget(self.tuning_card)
        at = self.content.indexOf(self.table_card) + (0 if first else 1)
        self.content.insertWidget(at, self.tuning_card)
        self.content.activate()  # the new places now, for ensureWidgetVisible below

    def _show_tuning(self) -> None:
        applied = self._state.tuning
        state = self._state.tuning_state
        on_trial = applied is not None and state == "guarded"
        if on_trial or not self.isVisible():  # settled here: in sight until the user leaves
            self._place_tuning_card(on_trial)
        measured = self._measured_lines()
        # each tweak alone (indented under its heading), and each one's outcome (_tuning_words)
        self._outcome_lines = {line for line in measured if line.startswith(" ")}
        found = self._state.model.attribution
        self.waterfall.setVisible(bool(found and found.contributions))
        if found and found.contributions:
            self.waterfall.load(QByteArray(waterfall_svg(found.contributions)))
        self.tuning_card.setVisible(applied is not None or bool(measured))
        if applied is None:
            self.tuning_text.setText("\n".join(measured))
            self.keep_button.setEnabled(False)
            self.revert_button.setEnabled(False)
            self.persist_button.setEnabled(False)
            return
        self.tuning_text.setText("\n".join([*self._tuning_words(applied, state), *measured]))
        focused = QApplication.focusWidget()
        was_here = focused is not None and self.tuning_card.isAncestorOf(focused)
        self._tuning_buttons(applied, state)
        if applied.persist and state == "confirmed":
            kept = ", ".join(tweak_title(t) for t in kept_tweaks(applied))
            self.tuning_text.setText(f"Kept, also after a restart.\nTweaks: {kept}")
        now = QApplication.focusWidget()
        if was_here and (now is None or not self.tuning_card.isAncestorOf(now)):
            self._focus_tuning_text()

    def _tuning_words(self, applied: AppliedSession, state: TuningState | None) -> list[str]:
        """Where the tuning stands (on trial, with what a run under it measured; in force;
        reverted), then what each tweak's apply did."""
        text = {
            "guarded": "On trial, not yet kept: press Keep to keep these settings, or the Pi "
            "puts everything back by itself when the countdown in the status bar ends.",
            "confirmed": "In force until the Pi restarts.",
            "reverted": "Reverted: the Pi is as it was before.",
        }.get(state or "", "")
        if state == "guarded" and self._state.model.keep is None:  # by hand, not the flow
            runs = self.runs()
            ran_under = (runs[-1].tuning_state or {}).get("session") if runs else None
            verdict = (on_trial_verdict(runs, self._records.calibration(runs))
                       if ran_under == applied.id else "")  # fmt: skip
            text += f"\n{verdict}" if verdict else ""
        outcomes = outcome_lines(applied.outcomes)
        self._outcome_lines |= set(outcomes)
        if state == "reverted" and outcomes:  # the lines say "applied": before the revert
            text += " Until then:"  # (s10 walk: read as still applied)
        return [text, *outcomes]

    def _tuning_buttons(self, applied: AppliedSession, state: TuningState | None) -> None:
        """Keep while on trial, Revert while in force, Keep across reboot once, all only while
        connected."""
        live = self._state.session is not None
        self.keep_button.setEnabled(live and state == "guarded")
        in_force = self._state.model.tuning_in_force
        self.revert_button.setEnabled(live and in_force)
        persistent = applied.persist
        self.persist_button.setEnabled(live and in_force and not persistent)
        self.persist_button.setToolTip(
            "Already kept across reboots."
            if persistent
            else "Write the settings to boot-time files on the Pi (sysctl.d, a systemd unit, "
            "a udev rule), so they come back after a restart."
        )

    def _focus_tuning_text(self) -> None:
        """The pressed button is disabled now (Revert, Keep): the focus stays on what it did,
        not on the next field down the page (the export folder)."""
        self.tuning_text.setFocus(Qt.FocusReason.OtherFocusReason)
        # ...and in sight: its first line ("Reverted: ...") sits above the buttons, often
        # scrolled out of a small window by the time the user reached them.
        self.ensureWidgetVisible(self.tuning_card, 0, 0)
        self.ensureWidgetVisible(self.tuning_text, 0, 10)

    # ------------------------------------------------------------------ actions
    def _keep(self) -> None:
        if self._state.tuning_state == "guarded":
            self._tuning.confirm()

    def _persist(self) -> None:
        self.problem.clear()
        self._tuning.keep_across_reboot()

    def apply_theme(self, colors: Colors) -> None:
        self.chart.apply_theme(colors)
        self.advice.apply_theme(colors)

    def set_units(self) -> None:
        self.shown()
