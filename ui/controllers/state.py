"""What the wizard knows so far about the Pi it is working on (one per window)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from sbctune.advice import Advice
from sbctune.history.records import RunRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.remote import Session
from sbctune.tuning import AppliedSession


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


class AppState(QObject):
    """The session and the results of each step; `changed(name)` after each update."""

    changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: Session | None = None
        self.info: ConnectedInfo | None = None
        self.device_id: int | None = None
        self.inventory: Inventory | None = None
        self.inventory_id: int | None = None
        self.nic: str | None = None
        self.baseline: RunRecord | None = None
        self.after: RunRecord | None = None
        self.tuning: AppliedSession | None = None  # once tuning ran
        self.tuning_state: str | None = None  # "guarded" | "confirmed" | "reverted"
        self.advice: Advice | None = None
        self.sample_data = False  # the self-test's labelled sample data is shown

    def set(self, name: str, value: Any) -> None:
        setattr(self, name, value)
        self.changed.emit(name)

    @property
    def selected_nic(self) -> Nic | None:
        if self.inventory is None or self.nic is None:
            return None
        return self.inventory.nic(self.nic)

    def forget_results(self) -> None:
        """A new device or NIC: the old figures no longer apply."""
        for name in ("baseline", "after", "tuning", "advice", "tuning_state"):
            setattr(self, name, None)
        self.changed.emit("results")
