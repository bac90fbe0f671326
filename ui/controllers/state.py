"""What the wizard knows so far about the Pi it is working on (one per window).

The state itself is sbctune.workflow's typed `WorkflowState`, changed only through its named
transitions (`state.model.connected(...)`, `.measured(...)`, ...). This wrapper turns each
announced change into a Qt signal of its own, so a page listens to exactly what it shows.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from sbctune.advice import Advice
from sbctune.history.records import RunRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.remote import Session
from sbctune.tuning import AppliedSession
from sbctune.workflow import Aspect, ConnectedInfo, WorkflowState
from sbctune.workflow.rules import TuningState

__all__ = ["AppState", "ConnectedInfo"]


class AppState(QObject):
    """Read-only views of the workflow state, and one signal per aspect that can change."""

    connection_changed = Signal()  # session / info
    inventory_changed = Signal()
    nic_changed = Signal()
    results_changed = Signal()  # baseline, after, advice, partial runs
    tuning_changed = Signal()  # the session in force and its state
    changed = Signal()  # after any of the above (the sidebar's enabled steps)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = WorkflowState()
        signals = {
            "connection": self.connection_changed,
            "inventory": self.inventory_changed,
            "nic": self.nic_changed,
            "results": self.results_changed,
            "tuning": self.tuning_changed,
        }

        def announce(aspect: Aspect) -> None:
            signals[aspect].emit()
            self.changed.emit()

        self.model.subscribe(announce)

    # ------------------------------------------------------------------ reads
    @property
    def session(self) -> Session | None:
        return self.model.session

    @session.setter
    def session(self, session: Session | None) -> None:
        """The same login through another object (tests wrap it); nothing else changes."""
        self.model.replace_session(session)

    @property
    def info(self) -> ConnectedInfo | None:
        return self.model.info

    @property
    def device_id(self) -> int | None:
        return self.model.device_id

    @property
    def inventory(self) -> Inventory | None:
        return self.model.inventory

    @property
    def inventory_id(self) -> int | None:
        return self.model.inventory_id

    @property
    def nic(self) -> str | None:
        return self.model.nic

    @property
    def nic_note(self) -> str | None:
        """Why Inspect picked the NIC, where the route names a bridge, bond or VLAN over it."""
        return self.model.nic_note

    @property
    def selected_nic(self) -> Nic | None:
        return self.model.selected_nic

    @property
    def baseline(self) -> RunRecord | None:
        return self.model.baseline

    @property
    def after(self) -> RunRecord | None:
        return self.model.after

    @property
    def runs(self) -> list[RunRecord]:
        return self.model.runs

    @property
    def tuning(self) -> AppliedSession | None:
        return self.model.tuning

    @property
    def tuning_state(self) -> TuningState | None:
        return self.model.tuning_state

    @property
    def advice(self) -> Advice | None:
        return self.model.advice

    @property
    def sample_data(self) -> bool:
        return self.model.sample_data
