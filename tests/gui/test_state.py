"""The GUI's state is sbctune.workflow's typed state: each transition gives the Qt signals of
exactly the aspects it changed, and the values read back typed."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import AppliedSession, TweakOutcome
from sbctune.ui.controllers.state import AppState


def _recorder(state: AppState) -> list[str]:
    seen: list[str] = []
    for name in ("connection", "inventory", "nic", "results", "tuning"):
        signal = getattr(state, f"{name}_changed")
        signal.connect(lambda name=name: seen.append(name))
    return seen


def test_each_transition_signals_what_it_changed(gui_app: QApplication) -> None:
    state = AppState()
    seen = _recorder(state)
    any_change: list[None] = []
    state.changed.connect(lambda: any_change.append(None))
    state.model.inspected(Inventory(nics=[Nic("eth0"), Nic("eth1")]), 3, "eth0")
    assert seen == ["inventory", "nic", "results", "tuning"] and len(any_change) == 4
    assert state.inventory_id == 3 and state.selected_nic is not None
    seen.clear()
    applied = AppliedSession("s1", 0.0, [TweakOutcome("rps", "applied")])
    state.model.tuning_applied(applied)
    assert seen == ["tuning"] and state.tuning is applied and state.tuning_state == "guarded"
    seen.clear()
    state.model.choose_nic("eth1")
    assert seen == ["nic", "results", "tuning"]
    assert state.nic == "eth1" and state.tuning is None and state.tuning_state is None
