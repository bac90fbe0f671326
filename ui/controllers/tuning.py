"""Tune: plan the tweaks for the NIC under test, apply them under the guard, confirm or revert.

sbctune.tuning is used through its public functions only.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Coroutine, Mapping
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from sbctune import tuning
from sbctune.errors import UserError
from sbctune.history import History
from sbctune.remote import RemoteError, Session
from sbctune.tuning import AppliedSession, PlannedTweak, TuningPlan
from sbctune.ui.controllers.state import AppState
from sbctune.ui.tasks import TaskRunner
from sbctune.workflow import problem_from
from sbctune.workflow.guard_hold import HELD, held_words_in
from sbctune.workflow.link_consent import plan_options
from sbctune.workflow.rules import as_confirmed, kept_tweaks

# What the Tune page names (it never imports the core's tuning package).
__all__ = ["AppliedSession", "PlannedTweak", "TuningController", "TuningPlan", "default_selection"]


def default_selection(
    items: list[PlannedTweak], no_help: Mapping[str, str] | None = None
) -> set[str]:
    """Pre-checked: recommended (safe), applicable, not advanced, not already in force, and
    not measured alone on this Pi as no help (`no_help`: tweak id -> what it did alone)."""
    return {
        item.tweak.id
        for item in items
        if item.applicable
        and item.tweak.recommended
        and not item.tweak.advanced
        and not item.already
        and item.tweak.id not in (no_help or {})
    }


GUARD_READ_TRIES = 5  # reads of the Pi's state after the countdown, GUARD_READ_PAUSE_S apart
GUARD_READ_PAUSE_S = 2.0
SESSION_WORDS = {  # a guarded session's state on the Pi, in words (tuning.model.LeftoverSession)
    "prepared": "as not yet applied",
    "armed": "still on trial under its guard",
    "reverting": "as being put back",
    "revert_failed": "as not put back: its revert failed",
}
# After its tries the Pi did not answer (SSH gone): what the guard does there by itself
# (app/tuning/scripts.py: guard.sh runs `revert.sh guard` at the deadline unless the session
# was kept), and what to do. Reconnecting reads it back (guard_reconnected).
GUARD_UNREACHABLE = (
    "The guard's time is up, but the Pi could not be reached to read back what it did. "
    "The guard runs on the Pi by itself: at its deadline it puts the settings back unless "
    "you kept them, whether or not this window is connected. Connect to the Pi again: "
    "sbctune then reads back what the guard did and shows it here."
)
GUARD_REVERTED = "The guard ran out: the Pi reverted the settings by itself."


def guard_words(state: str) -> str:
    """What the Pi read back says about a session whose guard ran out."""
    if state == "reverted":
        return GUARD_REVERTED
    if state == "confirmed":
        return "The Pi reports the tuning as kept."
    words = SESSION_WORDS.get(state, "in a state sbctune could not read")
    return f"The guard ran out; the Pi reports the tuning {words}."


class TuningController(QObject):
    busy = Signal(bool, str)
    planned = Signal(object)  # TuningPlan
    applied = Signal(object)  # AppliedSession (guard armed, not confirmed)
    confirmed = Signal(str)
    reverted = Signal(str)
    reported = Signal(str)  # what apply says as it goes
    failed = Signal(object)  # Problem
    leftover_done = Signal(str, bool)  # the session found at connect: words, kept (or reverted)
    guard_read = Signal(str)  # after the countdown: what the Pi says its guard did
    # Twice a second while a guard counts down (and once when it stops): `seconds_shown` is
    # then the one figure every countdown shows (walk 14: the page said 88 s, the bar 89 s).
    guard_tick = Signal()

    def __init__(self, state: AppState, runner: TaskRunner, history: History) -> None:
        super().__init__()
        self._state = state
        self._runner = runner
        self._history = history
        self._task: asyncio.Task[None] | None = None
        self.plan: TuningPlan | None = None
        # The user agreed to changes that briefly drop the SSH NIC's link (the Tune page's box).
        self.allow_link_restart = False
        # A guarded session whose end the Pi could not be asked about (SSH gone): read back at
        # the next connection (the s13 walk: the page kept saying "reading back…").
        self.unread_guard: str | None = None
        state.connection_changed.connect(self._reconnected)
        self.seconds_shown: int | None = None
        self._guard_timer = QTimer(self)
        self._guard_timer.setInterval(500)
        self._guard_timer.timeout.connect(self._guard_tick)
        state.tuning_changed.connect(self._guard_tick)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def _start(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        if self.running:
            coro.close()
            return
        self._task = self._runner.start(coro, name=name, on_error=self._fail)

    def _fail(self, exc: BaseException) -> None:
        self.busy.emit(False, "")
        self.failed.emit(problem_from(exc))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _session(self) -> Session:
        if self._state.session is None:
            raise UserError("Not connected to a Pi.", "Go to Connect first.")
        return self._state.session

    # ------------------------------------------------------------------ actions
    def load_plan(self, allow_link_restart: bool | None = None) -> None:
        """Plan every tweak; with `allow_link_restart` given, plan again with (True) or
        without (False) the user's consent to changes that briefly drop the link."""
        if allow_link_restart is not None and not self.running:
            self.allow_link_restart = allow_link_restart
        self._start(self._plan(), "tuning-plan")

    def apply(self, tweak_ids: list[str], guard_seconds: int, persist: bool = False) -> None:
        self._start(self._apply(tweak_ids, guard_seconds, persist), "tuning-apply")

    def keep_across_reboot(self) -> None:
        """Make the tweaks in force permanent: revert them, then apply the same ones with the
        boot-time files (sysctl.d, a systemd unit, a udev rule) under a new guard, and keep."""
        self._start(self._persist(), "tuning-persist")

    def confirm(self) -> None:
        self._start(self._confirm(), "tuning-confirm")

    def revert(self) -> None:
        self._start(self._revert(), "tuning-revert")

    def revert_leftover(self) -> None:
        """Put back the session found on the Pi at connect (cut short, or still guarded)."""
        self._start(self._settle_leftover(keep=False), "tuning-revert-leftover")

    def keep_leftover(self) -> None:
        """Confirm the session found on the Pi at connect, while its guard still runs."""
        self._start(self._settle_leftover(keep=True), "tuning-keep-leftover")

    def guard_ran_out(self) -> None:
        """The page's countdown reached zero: read back from the Pi what its guard did, and
        the history follows it (the s13 walk: the window called the tuning reverted while the
        history said "on trial under the guard" until `tune status` read the Pi)."""
        self._start(self._guard_ran_out(), "tuning-guard-read")

    async def _guard_ran_out(self, tries: int = GUARD_READ_TRIES) -> None:
        applied = self._state.tuning
        if applied is None:
            return
        state = None
        for attempt in range(tries):  # the Pi's guard may need a moment after the countdown
            if attempt:
                await asyncio.sleep(GUARD_READ_PAUSE_S)
            session = self._state.session
            if session is None or session.closed:
                continue  # SSH is gone: the next try may find a new connection
            try:
                found = await tuning.status(session, history=self._history)
            except RemoteError:  # the connection dropped while asking
                continue
            mine = next((s for s in found if s.id == applied.id), None)
            state = mine.state if mine is not None else "reverted"
            if state in ("reverted", "confirmed", "revert_failed"):
                break
        if state is None:
            self.unread_guard = applied.id
            self.guard_read.emit(GUARD_UNREACHABLE)
            return
        self.unread_guard = None
        if state == "reverted" and self._state.tuning is applied:  # not a new login's
            self._state.model.tuning_reverted()
        self.guard_read.emit(guard_words(state))

    def _reconnected(self) -> None:
        """A connection came back after the guard ran out unread: read back what it did."""
        session = self._state.session
        if self.unread_guard is not None and session is not None and not session.closed:
            self._start(self._read_unread(self.unread_guard), "tuning-guard-reread")

    async def _read_unread(self, session_id: str) -> None:
        found = await tuning.status(self._session(), history=self._history)
        mine = next((s for s in found if s.id == session_id), None)
        if mine is None:  # another Pi (or its sessions were cleared): wait for the right one
            return
        self.unread_guard = None
        self.guard_read.emit(guard_words(mine.state))

    def _guard_tick(self) -> None:
        self.seconds_shown = self.guard_seconds_left()
        counting = self.seconds_shown is not None and self.seconds_shown > 0
        if counting and not self._guard_timer.isActive():
            self._guard_timer.start()
        elif not counting:
            self._guard_timer.stop()
        self.guard_tick.emit()

    def guard_seconds_left(self) -> int | None:
        """The guard's time left in whole seconds, rounded up: the one figure the Tune page's
        bar and the status bar both show (walk 14: one said 88 s, the other 89 s)."""
        left = self.guard_left()
        return None if left is None else math.ceil(left)

    def guard_left(self) -> float | None:
        applied = self._state.tuning
        if applied is None or self._state.tuning_state != "guarded":
            return None
        model = self._state.model
        if model.guard_held:  # extended for the run, re-armed every third of it
            deadline = model.hold.pi_deadline if model.hold is not None else None
            if deadline is None:
                return float(applied.guard_seconds)
            return max(0.0, deadline - time.time())
        return max(0.0, applied.guard_deadline - time.time())

    def held_text(self) -> str | None:
        """While a run holds the guard: what the status bar says (None: not held), with the
        seconds every countdown shows."""
        model = self._state.model
        if not model.guard_held:
            return None
        if model.hold is None or model.hold.pi_deadline is None or self.seconds_shown is None:
            return HELD
        return held_words_in(self.seconds_shown)

    async def _plan(self) -> None:
        session = self._session()
        inventory = self._state.inventory
        if inventory is None:
            raise UserError("The Pi has not been inspected yet.", "Go to Inspect first.")
        self.busy.emit(True, "Reading the current settings on the Pi…")
        # Every tweak, so the expert can opt in to the advanced ones; the default selection
        # (recommended and safe) is pre-checked by the page.
        ids = [t.id for t in tuning.load_tweaks()]
        self.plan = await tuning.plan(
            session, inventory, self._state.nic, ids, plan_options(self.allow_link_restart)
        )
        self.busy.emit(False, "")
        self.planned.emit(self.plan)

    async def _apply(self, tweak_ids: list[str], guard_seconds: int, persist: bool = False) -> None:
        session = self._session()
        if self.plan is None:
            raise UserError("There is no tuning plan yet.", "Reload the tweaks first.")
        if not tweak_ids:
            raise UserError("No tweak is selected.", "Tick at least one tweak to apply.")
        inventory = self._state.inventory
        if inventory is None:
            raise UserError("The Pi has not been inspected yet.", "Go to Inspect first.")
        self.busy.emit(True, "Applying under the auto-revert guard…")
        chosen = await tuning.plan(
            session, inventory, self._state.nic, tweak_ids, plan_options(self.allow_link_restart)
        )
        applied = await tuning.apply(
            session,
            chosen,
            guard_seconds=guard_seconds,
            persist=persist,
            on_event=self.reported.emit,
            history=self._history,
        )
        self._state.model.tuning_applied(applied)
        self.busy.emit(False, "")
        self.applied.emit(applied)

    async def _confirm(self) -> None:
        session = self._session()
        applied = self._state.tuning
        if applied is None:
            raise UserError("Nothing to confirm.", "Apply some tweaks first.")
        self.busy.emit(True, "Confirming: disarming the guard…")
        await tuning.confirm(session, applied.id, history=self._history)
        self._state.model.tuning_confirmed()
        self.busy.emit(False, "")
        self.confirmed.emit(applied.id)

    async def _revert(self) -> None:
        session = self._session()
        applied = self._state.tuning
        self.busy.emit(True, "Reverting: restoring every value as it was…")
        session_id = applied.id if applied is not None else None
        # what the Pi saw of a link a restored value drops ("the link of eth1 dropped and came
        # back within a second"): said in the log as apply says it (walk 22: the CLI said it,
        # the window did not)
        await tuning.revert(session, session_id, history=self._history,
                            on_event=self.reported.emit)  # fmt: skip
        self._state.model.tuning_reverted()
        self.busy.emit(False, "")
        self.reverted.emit(session_id or "")

    async def _settle_leftover(self, keep: bool) -> None:
        session = self._session()
        info = self._state.info
        leftover = info.tuning_leftover if info is not None else None
        if leftover is None:
            raise UserError("No earlier tuning session is waiting on this Pi.", "")
        # The user reads the tuning by what it is, not by its session id (the Pi's file name).
        if keep:
            self.busy.emit(True, "Keeping the tuning left on the Pi: stopping its guard…")
            await tuning.confirm(session, leftover.id, history=self._history)
        else:
            self.busy.emit(True, "Reverting the tuning left on the Pi: restoring every value…")
            await tuning.revert(session, leftover.id, history=self._history,
                                on_event=self.reported.emit)  # fmt: skip
        self._state.model.leftover_settled(kept=keep)
        self.busy.emit(False, "")
        self.leftover_done.emit(
            "Kept: the tuning left on the Pi stays, its guard is stopped."
            if keep
            else "Reverted: every value the tuning left on the Pi had changed is back.",
            keep,
        )

    async def _persist(self) -> None:
        session = self._session()
        applied = self._state.tuning
        if applied is None:
            raise UserError("No tuning is in force.", "Apply some tweaks first.")
        kept = kept_tweaks(applied)
        if not kept:
            raise UserError("No tweak is in force to keep.", "")
        inventory = self._state.inventory
        if inventory is None:
            raise UserError("The Pi has not been inspected yet.", "Go to Inspect first.")
        self.busy.emit(
            True, "Making the tweaks permanent: reverting, then applying with boot files…"
        )
        if self._state.model.tuning_in_force:
            await tuning.revert(session, applied.id, history=self._history)
        # the options the session was applied with (the consent then, not today's tick), and
        # the values it confirmed, not what planning gives now (s16 left21 row 7)
        options = applied.options or plan_options(self.allow_link_restart)
        plan = await tuning.plan(session, inventory, self._state.nic, kept, dict(options))
        for line in as_confirmed(plan, applied):
            self.reported.emit(line)
        again = await tuning.apply(
            session,
            plan,
            guard_seconds=applied.guard_seconds,
            persist=True,
            on_event=self.reported.emit,
            history=self._history,
        )
        self._state.model.tuning_applied(again)
        await tuning.confirm(session, again.id, history=self._history)
        self._state.model.tuning_confirmed()
        self.busy.emit(False, "")
        self.confirmed.emit(again.id)
