"""The set-up the guard-ran-out GUI lab tests share: connect through the dialog, plan, and apply
one tweak under a 5 s guard, so the countdown ends within the test."""

from __future__ import annotations

from typing import Any

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.lab_steps import connect_and_inspect


async def armed_short_guard(window: MainWindow, lab: LabInfo, tune: TunePage) -> tuple[Any, int]:
    """The session applied under the 5 s guard, and the id of its device in the history."""
    controller = tune.controller
    await connect_and_inspect(window, lab)
    controller.load_plan()
    await until(lambda: controller.plan is not None and not controller.running, 60, "plan")
    controller.apply(["cpu-governor-performance"], guard_seconds=5)
    await until(lambda: window.state.tuning_state == "guarded", 60, "the guard armed")
    applied = window.state.tuning
    assert applied is not None
    (device,) = window.history.devices()
    assert device.id is not None
    return applied, device.id


def stored_state(window: MainWindow, device_id: int, session_id: str) -> str | None:
    """The state the history holds for that tuning session."""
    (stored,) = [r for r in window.history.tuning_sessions(device_id)
                 if r.data.get("id") == session_id]  # fmt: skip
    return stored.state
