"""What the user's path knows so far about the Pi it works on: one typed object, changed only
through named transitions (connected, inspected, measured, ...), each announcing which aspect
changed. The GUI turns the announcements into Qt signals; the CLI holds one per command.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import sbctune.workflow.rules as rules
from sbctune.advice import Advice, advise
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import AppliedSession, LeftoverSession
from sbctune.workflow.flow_types import Attribution
from sbctune.workflow.guard_hold import GuardHold
from sbctune.workflow.keeping import KeepDecision
from sbctune.workflow.rules import TuningState

if TYPE_CHECKING:
    from sbctune.remote.session import Session  # SSH (asyncssh) loads where a session opens
    from sbctune.workflow.flow_types import FlowResult

Role = Literal["baseline", "after"]
# What a transition changed: a front end refreshes only what shows that aspect.
Aspect = Literal["connection", "inventory", "nic", "results", "tuning"]
Listener = Callable[[Aspect], None]


@dataclass(frozen=True)
class ConnectedInfo:
    """What `Connect` learned: shown in the status bar and the About box."""

    display: str
    hostname: str
    kernel: str
    user: str
    sudo: str  # "root" | "passwordless" | "password"
    sudo_ok: bool
    iperf3_pi: str | None = None
    # The newest tuning session left on the Pi and not reverted (`orphaned`: cut short, it
    # will not revert by itself): to offer keeping or reverting it.
    tuning_leftover: LeftoverSession | None = None


@dataclass
class WorkflowState:
    session: Session | None = None
    info: ConnectedInfo | None = None
    device_id: int | None = None
    inventory: Inventory | None = None
    inventory_id: int | None = None
    nic: str | None = None  # the NIC under test
    # Why Inspect picked it, where that is not plain (eth0 under the bridge the route names)
    nic_note: str | None = None
    baseline: RunRecord | None = None
    after: RunRecord | None = None
    partial: list[RunRecord] = field(default_factory=list)  # cancelled runs kept, incomplete
    tuning: AppliedSession | None = None  # once tuning ran
    tuning_state: TuningState | None = None
    # The session found at connect that the user kept: still in force (baseline_check).
    kept_leftover: LeftoverSession | None = None
    flow_running: bool = False  # the one-click flow is running (it applies its own tweaks)
    # A page's own measurement running ("baseline" or "after"): one test at a time, and no
    # tuning under it (a second iperf3 run shares the link; a tweak changes what is measured).
    measuring: str | None = None
    guard_held: bool = False  # a measurement holds the armed session's guard (heartbeat)
    hold: GuardHold | None = None  # that hold: when the Pi reverts if no further beat comes
    keep: KeepDecision | None = None  # the one-click flow's verdict on its tweaks
    attribution: Attribution | None = None  # what each tweak did alone, when told apart
    # Tweaks the last flow held back for the link, the user not having agreed (link_consent).
    held_for_link: tuple[str, ...] = ()
    advice: Advice | None = None
    sample_data: bool = False  # the GUI self-test's labelled sample data is shown
    _listeners: list[Listener] = field(default_factory=list, repr=False)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _changed(self, *aspects: Aspect) -> None:
        for aspect in aspects:
            for listener in list(self._listeners):
                listener(aspect)

    # ------------------------------------------------------------------ derived
    @property
    def selected_nic(self) -> Nic | None:
        if self.inventory is None or self.nic is None:
            return None
        return self.inventory.nic(self.nic)

    @property
    def runs(self) -> list[RunRecord]:
        """Before, then after: the runs the results compare."""
        return [r for r in (self.baseline, self.after) if r is not None]

    @property
    def tuning_in_force(self) -> bool:
        return rules.in_force(self.tuning, self.tuning_state)

    def run_tuning_state(self) -> dict[str, object] | None:
        """What a run measured now stores as the tuning in force while it ran."""
        return rules.run_tuning_state(self.tuning, self.tuning_state)

    def advice_tuning(self) -> dict[str, object] | None:
        return rules.advice_tuning(self.tuning, self.tuning_state)

    def advice_now(self) -> Advice | None:
        """The advice on the runs so far (the tweaks in force are not recommended again),
        worked out once until the runs or the tuning change."""
        if self.advice is None and self.inventory is not None and self.runs:
            self.advice = advise(
                self.inventory,
                self.runs,
                load_catalog(),
                tuning=self.advice_tuning(),
                no_help=rules.no_help_of(self.attribution),
            )
        return self.advice

    # ------------------------------------------------------------------ transitions
    def connected(self, session: Session, info: ConnectedInfo, device_id: int | None) -> None:
        """A new login: whatever was known about the previous Pi no longer applies."""
        self.session, self.info, self.device_id = session, info, device_id
        self.kept_leftover = None
        self.inventory = None
        self.inventory_id = None
        self.nic = None
        self._forget()
        self._changed("connection", "inventory", "nic", "results", "tuning")

    def disconnected(self) -> None:
        self.session, self.info = None, None
        self._changed("connection")

    def replace_session(self, session: Session | None) -> None:
        """The same login seen through another object (a wrapper): nothing else changes."""
        self.session = session
        self._changed("connection")

    def inspected(
        self,
        inventory: Inventory,
        inventory_id: int | None,
        nic: str | None,
        nic_note: str | None = None,
    ) -> None:
        self.inventory = inventory
        if inventory_id is not None:
            self.inventory_id = inventory_id
        self.nic, self.nic_note = nic, nic_note
        self._forget()
        self._changed("inventory", "nic", "results", "tuning")

    def choose_nic(self, nic: str) -> bool:
        """Another NIC under test: the old figures no longer apply. False: no change."""
        if nic == self.nic:
            return False
        self.nic, self.nic_note = nic, None  # the user's choice needs no reason said
        self._forget()
        self._changed("nic", "results", "tuning")
        return True

    def measured(self, role: Role, record: RunRecord) -> None:
        if role == "baseline":
            self.baseline = record
        else:
            self.after = record
        self.advice = None  # new figures: advice is worked out again
        self._changed("results")

    def hold_guard(self, held: bool) -> None:
        """A measurement started (True) or ended (False) while a session may be armed. At
        its end the held guard was re-armed for its full time (sbctune.workflow.guard_hold)."""
        if not held and self.guard_held and self.tuning is not None:
            self.tuning.guard_deadline = time.time() + self.tuning.guard_seconds
        self.guard_held = held and self.tuning_state == "guarded"
        if not self.guard_held:
            self.hold = None
        self._changed("tuning")

    def holding(self, hold: GuardHold) -> None:
        """The run extended the guard on the Pi (its deadline, kept fresh by the heartbeat)."""
        if self.guard_held:
            self.hold = hold
            self._changed("tuning")

    def tuning_read_back(self, record: RunRecord, guard_deadline: float | None) -> None:
        """After a run: the tuning as read back from the Pi at its end. A guard held through
        the run counts down afresh from `guard_deadline`; a session the Pi no longer keeps in
        force (its guard fired, or it was reverted elsewhere) is shown as reverted."""
        if self.tuning is None or self.tuning_state not in ("guarded", "confirmed"):
            return
        state = record.tuning_state if isinstance(record.tuning_state, dict) else {}
        end = state.get("end") if isinstance(state.get("end"), dict) else None
        if end is not None and end.get("readable", True) and end.get("session") != self.tuning.id:
            self.tuning_reverted()
            return
        if guard_deadline is not None and self.tuning_state == "guarded":
            self.tuning.guard_deadline = guard_deadline
            self._changed("tuning")

    def kept_partial(self, record: RunRecord) -> None:
        self.partial.append(record)
        self._changed("results")

    def tuning_applied(self, applied: AppliedSession) -> None:
        self.tuning, self.tuning_state = applied, "guarded"
        self._changed("tuning")

    def tuning_confirmed(self) -> None:
        self.tuning_state = "confirmed"
        self._changed("tuning")

    def tuning_reverted(self) -> None:
        """Reverted by the user, or by the Pi's guard when it ran out."""
        self.tuning_state = "reverted"
        self._changed("tuning")

    def leftover_settled(self, kept: bool = False) -> None:
        """The session found at connect was reverted or kept: nothing is left to offer. A kept
        one stays in force on the Pi (a baseline must know: sbctune.workflow.baseline_check)."""
        if self.info is not None and self.info.tuning_leftover is not None:
            leftover = self.info.tuning_leftover
            self.kept_leftover = replace(leftover, state="confirmed") if kept else None
            self.info = replace(self.info, tuning_leftover=None)
            self._changed("tuning")

    def reverted_for_baseline(self) -> None:
        """Every session on the Pi was put back (and read back) before a baseline."""
        if self.tuning is not None and self.tuning_state in ("guarded", "confirmed"):
            self.tuning_state = "reverted"
        self.kept_leftover = None
        if self.info is not None and self.info.tuning_leftover is not None:
            self.info = replace(self.info, tuning_leftover=None)
        self._changed("tuning")

    def advised(self, advice: Advice) -> None:
        self.advice = advice
        self._changed("results")

    def flow_started(self) -> None:
        self._forget()
        self.flow_running = True
        self._changed("results", "tuning")

    def measuring_changed(self, role: str | None) -> None:
        """A page's own measurement started (its role) or ended (None); the pages that measure
        or tune follow it (announced as "tuning": what may change on the Pi now)."""
        if self.measuring != role:
            self.measuring = role
            self._changed("tuning")

    def flow_tuning(self, applied: AppliedSession, state: TuningState) -> None:
        """The one-click flow's tuning changed on the Pi (applied under its guard, kept or
        reverted): what is in force now, for the pages to show while the flow runs."""
        self.tuning, self.tuning_state = applied, state
        if state != "guarded":
            self.guard_held, self.hold = False, None
        self._changed("tuning")

    def flow_stopped(self) -> None:
        """The one-click flow ended, however (finished, failed or cancelled)."""
        if self.flow_running:
            self.flow_running = False
            self._changed("tuning")

    def flow_finished(self, result: FlowResult) -> None:
        self.flow_running = False
        self.baseline, self.after = result.baseline, result.after
        self.keep, self.attribution = result.keep, result.attribution
        self.held_for_link = tuple(result.held_for_link)
        self.tuning = result.tuning
        self.tuning_state = "confirmed" if result.tuning is not None else None
        self.advice = result.advice
        self._changed("results", "tuning")

    def show_sample(
        self,
        device_id: int,
        inventory: Inventory,
        baseline: RunRecord,
        after: RunRecord,
    ) -> None:
        """The self-test's labelled sample data, as if the path had run."""
        self.device_id, self.inventory, self.sample_data = device_id, inventory, True
        self.nic = inventory.nics[0].name if inventory.nics else None
        self._forget()
        self.baseline, self.after = baseline, after
        self._changed("connection", "inventory", "nic", "results", "tuning")

    def _forget(self) -> None:
        self.baseline = self.after = None
        self.tuning = self.tuning_state = self.advice = None
        self.keep = self.attribution = None
        self.held_for_link = ()
        self.partial = []
