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
from tests.gui.guard_support import armed_short_guard, stored_state

pytestmark = [pytest.mark.lab]


def test_the_guard_running_out_is_read_back_and_the_history_follows(
    lab: LabInfo, window: MainWindow, drive: Callable[..., Any]
) -> None:
    tune = window.page("tune")
    assert isinstance(tune, TunePage)

    async def scenario() -> None:
        applied, device_id = await armed_short_guard(window, lab, tune)
        await until(lambda: "reading back" in tune.guard_text.text(), 30, "the countdown's end")
        await until(lambda: "reverted the settings" in tune.guard_text.text(), 40, "read back")
        assert window.state.tuning_state == "reverted"
        assert stored_state(window, device_id, applied.id) == "reverted"

    drive(scenario(), timeout=200)
