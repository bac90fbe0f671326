"""Step 4, Tune: recommended tweaks pre-checked, badges, command preview, guard, confirm/revert."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sbctune.ui.controllers.state import AppState
from sbctune.ui.controllers.tuning import (
    AppliedSession,
    TuningController,
    TuningPlan,
    default_selection,
)
from sbctune.ui.pages.base import Page
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import Card, ProblemPanel, clear_layout, label
from sbctune.ui.widgets.guard_card import GuardCard
from sbctune.ui.widgets.guard_spin import GuardSpin
from sbctune.ui.widgets.leftover_card import LeftoverCard
from sbctune.ui.widgets.tweak_row import TweakRow
from sbctune.workflow import Problem
from sbctune.workflow.leftover import leftover_notice
from sbctune.workflow.link_consent import (
    CONSENT_LABEL,
    consent_effect,
    consent_text,
    consented_link,
    dropping_text,
    held_for_link,
    held_text,
)
from sbctune.workflow.rules import apply_blocked, no_help_of
from sbctune.workflow.tune_view import apply_in_force, tune_view


class TunePage(Page):
    title = "4 · Tune"
    intro = (
        "The tweaks that fit this Pi's hardware. The safe, recommended ones are ticked. They "
        "are applied under an auto-revert guard: unless you confirm, the Pi puts everything "
        "back by itself when the countdown ends, even if the network drops."
    )
    measure_again = Signal()
    continue_to_inspect = Signal()  # a session left on the Pi was settled first
    cancel_flow = Signal()  # Cancel while Tune & Measure tunes: the flow puts it back

    def __init__(self, state: AppState, controller: TuningController, colors: Colors) -> None:
        super().__init__()
        self._state = state
        self.controller = controller
        self._colors = colors
        self._apply_bar()
        self.content.addWidget(self._busy_row())
        self.problem = ProblemPanel()
        self.content.addWidget(self.problem)
        self.content.addWidget(self._leftover_card())
        self.guard_card = self._guard_card()
        self.content.addWidget(self.guard_card)
        self.content.addWidget(self._consent_card())
        self.content.addWidget(self._events_log())
        self.rows_box = QWidget()
        self.rows = QVBoxLayout(self.rows_box)
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.content.addWidget(self.rows_box)
        self.content.addStretch(1)
        self.tweak_rows: list[TweakRow] = []
        self._ran_out: object = None  # the session whose run-out was read back
        self._flow_tuning = ""  # what Tune & Measure's Tune step does, while it runs
        self._wire(state, controller)

    def _apply_bar(self) -> None:
        """The guard's options (keep across reboot, its seconds), then Reload and Apply."""
        self.reload_button = QPushButton("Re&load tweaks")
        self.guard = GuardSpin()
        self.guard.setValue(90)
        self.guard.setAccessibleName("Auto-revert guard in seconds")
        self.persist = QCheckBox("Keep across &reboot")
        self.persist.setToolTip(
            "Also write boot-time files on the Pi (sysctl.d, a systemd unit, a udev rule) so "
            "the settings return after a restart. Off: they last until the Pi restarts."
        )
        self.apply_button = QPushButton("&Apply selected")
        self.apply_button.setObjectName("primary")
        # Two rows: the guard's options, then the actions (one row was wider than a small window).
        options = QHBoxLayout()
        options.addWidget(self.persist)
        options.addWidget(self.guard)
        options.addWidget(self.guard.note, 10)  # the row's room, not half of it
        options.addStretch(1)
        bar = QHBoxLayout()
        bar.addWidget(self.reload_button)
        bar.addStretch(1)
        bar.addWidget(self.apply_button)
        self.content.addLayout(options)
        self.content.addLayout(bar)

    def _busy_row(self) -> QWidget:
        """A spinner and what runs: shown only while something runs (an empty row would leave a
        gap above the tweaks)."""
        self.busy_row = QWidget()
        busy_row = QHBoxLayout(self.busy_row)
        busy_row.setContentsMargins(0, 0, 0, 0)
        self.spinner = QProgressBar()
        self.spinner.setRange(0, 0)
        self.spinner.setMaximumWidth(160)
        self.status = label("", name="muted")
        # Where the measure pages put theirs: Tune & Measure's Tune step can be cancelled
        # here too (walk19: only closing the window stopped it); shown only while it tunes.
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.setAccessibleName("Cancel Tune & Measure")
        self.cancel_button.clicked.connect(self._cancel_flow)
        self.cancel_button.hide()
        busy_row.addWidget(self.spinner)
        busy_row.addWidget(self.status, 1)
        busy_row.addWidget(self.cancel_button)
        self.busy_row.hide()
        return self.busy_row

    def _events_log(self) -> QPlainTextEdit:
        """What the tuning did, step by step (hidden until it reports)."""
        self.events = QPlainTextEdit()
        self.events.setAccessibleName("What the tuning did, step by step")
        self.events.setReadOnly(True)
        self.events.setMaximumHeight(120)
        self.events.setPlaceholderText("What the tuning reports appears here.")
        self.events.hide()
        return self.events

    def _wire(self, state: AppState, controller: TuningController) -> None:
        """The page's buttons, and what the controller and the state report."""
        self.reload_button.clicked.connect(controller.load_plan)
        self.apply_button.clicked.connect(self._apply)
        self.leftover.revert_button.clicked.connect(
            self._settle_leftover(controller.revert_leftover)
        )
        self.leftover.keep_button.clicked.connect(self._settle_leftover(controller.keep_leftover))
        self.leftover.next_button.clicked.connect(self.continue_to_inspect)
        self.confirm_button.clicked.connect(controller.confirm)
        self.revert_button.clicked.connect(controller.revert)
        self.again_button.clicked.connect(self.measure_again)
        self.consent_box.clicked.connect(self._consent_given)
        controller.guard_tick.connect(self._tick)  # the status bar's seconds too
        controller.busy.connect(self._busy)
        controller.planned.connect(self.show_plan)
        controller.applied.connect(self.show_applied)
        controller.confirmed.connect(lambda _id: self._logged("kept"))
        controller.reverted.connect(lambda _id: self._logged("reverted"))
        controller.failed.connect(self._failed)
        controller.reported.connect(self.show_event)
        controller.leftover_done.connect(self.leftover.settled)
        controller.guard_read.connect(self._settled)  # what the Pi read back
        state.connection_changed.connect(self._show_leftover)
        state.inventory_changed.connect(self._forget_plan)
        # Everything shown of the tuning follows the state, at each change (walk 14).
        state.tuning_changed.connect(self.follow_tuning)
        state.connection_changed.connect(self._forget_consent)
        state.results_changed.connect(self._mark_no_help)

    def _leftover_card(self) -> LeftoverCard:
        """A session an earlier sbctune left on the Pi: revert or keep it, then inspect."""
        self.leftover = LeftoverCard()
        return self.leftover

    def _guard_card(self) -> GuardCard:
        """The countdown of the guard, what was applied, keep / revert / measure again."""
        card = GuardCard()
        self.countdown, self.guard_text, self.outcomes = card.countdown, card.words, card.outcomes
        self.confirm_button, self.revert_button = card.confirm_button, card.revert_button
        self.again_button = card.again_button
        self._shown_key: tuple[object, ...] | None = None  # the session and state last shown
        return card

    def _consent_card(self) -> Card:
        """Tweaks held back because the driver restarts the link of the NIC this app talks
        through: the user may agree, and the tweaks are planned again with the consent."""
        self.consent_card = Card("Changes that drop the network link")
        self.consent_box = QCheckBox(CONSENT_LABEL.replace("apply", "appl&y"))
        self.consent_box.setObjectName("link-consent")
        self.consent_box.setAccessibleName(consent_text())
        self.consent_box.setToolTip(consent_text())
        # What is held back and why first, then the box, then what ticking it does (the walk
        # of session 10 met the box first and a fragment, "About 3 s; applied under ...").
        self.consent_words = label(consent_effect(), name="muted")
        self.consent_held = label("")
        self.consent_card.body.addWidget(self.consent_held)
        self.consent_card.body.addWidget(self.consent_box)
        self.consent_card.body.addWidget(self.consent_words)
        self.consent_card.hide()
        self._replanning = False
        self._consent_for: tuple[str, str, str] | None = None  # the login it was given in
        return self.consent_card

    def _consent_given(self, checked: bool) -> None:
        """Plan again with (or without) the consent; the user's ticks are kept."""
        if self.controller.running:
            self.consent_box.setChecked(self.controller.allow_link_restart)
            return
        self._replanning = True
        self.consent_box.setEnabled(False)
        self.controller.load_plan(allow_link_restart=checked)

    def _forget_consent(self) -> None:
        """Another login (or none): the consent was for the last one's NIC."""
        info = self._state.info
        login = (info.display, info.hostname, info.user) if info is not None else None
        if login == self._consent_for:  # the same login (a wrapped session)
            return
        self._consent_for = login
        if not self.controller.running:
            self.controller.allow_link_restart = False
        self.consent_box.setChecked(False)
        self.consent_card.hide()

    def consent_decided(self, allow: bool) -> None:
        """The answer to the question asked before the one click or "Find what helps": the
        page shows it at once (the box, and each held row planned or held back), without
        planning again while the flow runs."""
        self.consent_box.setChecked(allow)
        held = [r for r in self.tweak_rows if r.held]
        for row in held:
            row.consent_decided(allow)
        titles = [r.check.text() for r in held]
        if titles:
            self.consent_held.setText(dropping_text(titles) if allow else held_text(titles))
            self.consent_card.show()

    def _no_help(self) -> dict[str, str]:
        """Tweak id -> what it did alone, for those "Find what helps" measured as no help."""
        return no_help_of(self._state.model.attribution)

    def _mark_no_help(self) -> None:
        """Measured as no help after the rows were shown: not ticked any more, and why."""
        no_help = self._no_help()
        for row in self.tweak_rows:
            if row.tweak_id in no_help and row.no_gain_badge.isHidden():
                row.measured_no_help(no_help[row.tweak_id])

    def _show_consent(self, plan: TuningPlan) -> None:
        held = [i.tweak.title for i in held_for_link(plan.items)]
        agreed = self.controller.allow_link_restart
        dropping = [i.tweak.title for i in consented_link(plan.items)] if agreed else []
        self.consent_box.setChecked(agreed)
        self.consent_box.setEnabled(True)
        if held:
            self.consent_held.setText(held_text(held))
        elif dropping:
            self.consent_held.setText(dropping_text(dropping))
        self.consent_words.setText(consent_effect(len(held or dropping)))
        self.consent_card.setVisible(bool(held or dropping))

    def follow_tuning(self) -> None:
        """The guard card, the tweaks' marks, the leftover card and Apply, from the state: the
        session as read back from the Pi, its state, a measurement holding it, the flow."""
        model = self._state.model
        view = tune_view(model)
        applied = model.tuning
        key = (id(applied), model.tuning_state, model.guard_held, model.flow_running)
        fresh = key != self._shown_key
        self._shown_key = key
        self.guard_card.show_view(view, words=fresh)
        for row in self.tweak_rows:
            row.mark(view.marks.get(row.tweak_id))
        if applied is not None or view.flow:  # superseded: it no longer says what is on the Pi
            self.leftover.hide()
        self.leftover.next_button.setEnabled(not view.flow)
        idle = not view.flow and not self.busy_row.isVisible()
        self.reload_button.setEnabled(self._ready() and idle)
        self.consent_box.setEnabled(idle)  # it plans again on the Pi
        if view.countdown and fresh:
            self._tick()
        self._refresh_apply()

    # ------------------------------------------------------------------ showing
    def _show_leftover(self) -> None:
        """A session an earlier sbctune left on the Pi, offered at each new connection."""
        info = self._state.info
        leftover = info.tuning_leftover if info is not None else None
        if leftover is None or self._state.tuning is not None:
            self.leftover.hide()
            return
        self.leftover.show_notice(leftover_notice(leftover))

    def _forget_plan(self) -> None:
        """Another login or inspection: the rows and the log were of the last one's plan (the
        walk of session 15: after reconnecting, the old rows and log stayed); planned again
        when the page is next shown."""
        clear_layout(self.rows)
        self.tweak_rows = []
        self.events.clear()
        self.events.hide()
        self._refresh_apply()

    def _settle_leftover(self, action: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            self.leftover.set_busy(True)
            action()

        return run

    def _refresh_apply(self, busy: bool | None = None) -> None:
        """Apply only when nothing else tunes the Pi; the tooltip says why not."""
        if busy is None:
            busy = self.busy_row.isVisible()
        ready = self._state.session is not None and self._state.inventory is not None
        model = self._state.model
        blocked = apply_blocked(model.tuning_state, model.flow_running, model.measuring)
        blocked = blocked or apply_in_force(model, self.selected())
        self.apply_button.setEnabled(ready and not busy and bool(self.tweak_rows) and not blocked)
        self.apply_button.setToolTip(blocked or "")

    def _ready(self) -> bool:
        return self._state.session is not None and self._state.inventory is not None

    def shown(self) -> None:
        ready = self._ready()
        self.reload_button.setEnabled(ready and not self._state.model.flow_running)
        self._refresh_apply()
        if ready and not self.tweak_rows and not self.controller.running:
            self.controller.load_plan()

    def _busy(self, busy: bool, text: str) -> None:
        if not busy and self._flow_tuning:  # the page's own plan loaded: the flow goes on
            busy, text = True, self._flow_tuning
        self.busy_row.setVisible(busy)
        # One job, one bar: during Tune & Measure the bar under the page is the flow's (walk 15).
        self.spinner.setVisible(not self._state.model.flow_running)
        self.status.setText(text)
        self._refresh_apply(busy)
        self.reload_button.setEnabled(self._ready() and not busy
                                      and not self._state.model.flow_running)  # fmt: skip
        self.consent_box.setEnabled(not busy and not self._state.model.flow_running)
        if busy:
            self.problem.clear()

    def _failed(self, problem: Problem) -> None:
        self.problem.show_problem(problem.message, problem.hint)
        self._replanning = False
        self.consent_box.setChecked(self.controller.allow_link_restart)
        self.leftover.set_busy(False)

    def show_plan(self, plan: TuningPlan) -> None:
        no_help = self._no_help()
        selected = default_selection(plan.items, no_help)
        replanned = self._replanning
        if self._replanning:  # planned again for the consent: keep what the user ticked
            for row in self.tweak_rows:
                if row.check.isEnabled():
                    (selected.add if row.check.isChecked() else selected.discard)(row.tweak_id)
            self._replanning = False
        clear_layout(self.rows)
        self.tweak_rows = []
        self._show_consent(plan)
        ordered = sorted(
            plan.items,
            key=lambda i: (i.tweak.advanced, not i.applicable, not i.tweak.recommended),
        )
        advanced_shown = False
        for item in ordered:
            if item.tweak.advanced and not advanced_shown:
                self.rows.addWidget(
                    label("Advanced (opt-in: bigger changes, some need a reboot)", name="cardTitle")
                )
                advanced_shown = True
            row = TweakRow(item, item.tweak.id in selected, self._colors,
                           no_help.get(item.tweak.id))  # fmt: skip
            row.check.toggled.connect(lambda _on: self._refresh_apply())
            self.tweak_rows.append(row)
            self.rows.addWidget(row)
        self.follow_tuning()  # the marks of the tweaks in force
        if replanned:
            # The box was disabled while the Pi planned again, so Qt gave its focus to the
            # rows, which were then replaced: the page followed the focus to its last tweak,
            # out of sight of the box just ticked and of Apply (walk 22). Back to the box.
            self.consent_box.setFocus()
            self.ensureWidgetVisible(self.consent_card)
            self.ensureWidgetVisible(self.apply_button, 0, 10)  # the next step, where it fits

    def selected(self) -> list[str]:
        return [r.tweak_id for r in self.tweak_rows if r.check.isChecked() and r.check.isEnabled()]

    def _apply(self) -> None:
        self.events.clear()
        self.events.show()
        # Applying shows at the top (spinner, then the guard's countdown): the user may have
        # pressed Apply (Alt+A) scrolled down among the tweaks.
        self.verticalScrollBar().setValue(0)
        self.guard.clear_note()  # the guard used is the box's value: the refusal is old news
        self.controller.apply(self.selected(), self.guard.value(), self.persist.isChecked())

    def show_event(self, message: str) -> None:
        self.events.show()
        self.events.appendPlainText(message)

    def show_applied(self, applied: AppliedSession) -> None:
        """Applied in this window: the state shows it; the guard card comes into sight."""
        # A tweak the Pi refused is no longer ticked: the row shows what happened, not the plan.
        status = {o.tweak_id: o.status for o in applied.outcomes}
        for row in self.tweak_rows:
            if status.get(row.tweak_id) in ("not_possible", "failed"):
                row.check.setChecked(False)
        self.follow_tuning()
        self.content.activate()  # the card's place now, to bring it (and Keep) into sight
        self.ensureWidgetVisible(self.confirm_button)
        self.ensureWidgetVisible(self.guard_card.title, 0, 30)  # its title and countdown first

    def _tick(self) -> None:
        left = self.controller.seconds_shown  # the status bar's figure too
        if left is None or self.countdown.isHidden():
            return
        # While a run holds the guard its deadline is the run's, later than the guard time.
        applied = self._state.tuning
        top = max(left, applied.guard_seconds if applied is not None else 1)
        if self.countdown.maximum() != top and (left > self.countdown.maximum()
                                                or self._state.model.hold is None):  # fmt: skip
            self.countdown.setRange(0, top)
        self.countdown.setValue(left)
        if left <= 0 and self._ran_out is not applied:
            self._ran_out = applied
            if self._state.model.flow_running:  # the flow keeps or reverts it, and says so
                return
            self._settled("The guard ran out: reading back from the Pi what it did…")
            self.controller.guard_ran_out()

    def _settled(self, text: str) -> None:
        """What the Pi read back (or is being asked) about a session whose guard ran out."""
        self.guard_text.setText(text)
        self.countdown.hide()
        self.confirm_button.setEnabled(False)

    def _logged(self, what: str) -> None:
        """Kept or reverted from this page: the log says so, with the time (walk 14: its last
        line still said "applied… the guard puts it back unless it is kept" after Keep)."""
        words = {"kept": "tuning kept at {}: the guard is off",
                 "reverted": "tuning reverted at {}: every value is back"}  # fmt: skip
        self.show_event(words[what].format(time.strftime("%H:%M")))

    def flow_progress(self, status: str, detail: str) -> None:
        """The one-click flow is tuning: show what it does (it confirms by itself)."""
        self.events.show()
        if detail:
            self.events.appendPlainText(detail)
        started = status == "started"
        # While the flow tunes, its row (and Cancel) stays, whatever else the page loads.
        self._flow_tuning = (detail or "Tuning…") if started else ""
        self._busy(started, detail if started else "")
        self.cancel_button.setVisible(started)
        self.cancel_button.setEnabled(started)

    def _cancel_flow(self) -> None:
        self.cancel_button.setEnabled(False)
        self.status.setText("Cancelling: putting back what was applied, then reading the Pi back…")
        self.cancel_flow.emit()

    def flow_ended(self) -> None:
        """The flow stopped (cancelled or failed): nothing runs here any more; the log keeps
        what the Pi read back."""
        self.cancel_button.hide()
        self._flow_tuning = ""
        if self.busy_row.isVisible():
            self._busy(False, "")

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors
        for row in self.tweak_rows:
            row.apply_theme(colors)
