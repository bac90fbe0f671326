"""When the guard runs out in the window, the Tune page and the history say what the Pi read back
(the s13 walk: the page said "the Pi reverted the settings by itself" at once, and the history
kept "on trial under the guard" until `sbctune tune status` read the Pi)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import connect_via_dialog

pytestmark = [pytest.mark.lab]


def test_the_guard_running_out_is_read_back_and_the_history_follows(
    lab: LabInfo, window: MainWindow, drive: Callable[..., Any]
) -> None:
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    controller = tune.controller

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        controller.load_plan()
        await until(lambda: controller.plan is not None and not controller.running, 60, "plan")
        controller.apply(["cpu-governor-performance"], guard_seconds=5)
        await until(lambda: window.state.tuning_state == "guarded", 60, "the guard armed")
        applied = window.state.tuning
        assert applied is not None
        (device,) = window.history.devices()
        assert device.id is not None
        await until(lambda: "reading back" in tune.guard_text.text(), 30, "the countdown's end")
        await until(lambda: "reverted the settings" in tune.guard_text.text(), 40, "read back")
        assert window.state.tuning_state == "reverted"
        (stored,) = [r for r in window.history.tuning_sessions(device.id)
                     if r.data.get("id") == applied.id]  # fmt: skip
        assert stored.state == "reverted"

    drive(scenario(), timeout=200)
