"""The guard runs out while the SSH connection to the Pi is really closed: after its tries the
Tune page says the Pi could not be reached and what its guard does by itself; connecting again
reads back what the guard did, on the page and in the history (the s13 walk: the page kept
saying "reading back…")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.guard_support import armed_short_guard, stored_state
from tests.gui.test_wizard_lab import _fill

pytestmark = [pytest.mark.lab]


def test_guard_out_with_ssh_closed_says_so_and_reconnecting_reads_it_back(
    lab: LabInfo, window: MainWindow, drive: Callable[..., Any]
) -> None:
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    controller = tune.controller

    async def scenario() -> None:
        applied, device_id = await armed_short_guard(window, lab, tune)
        session = window.state.session
        assert session is not None
        await session.close()  # the SSH connection is gone (really closed, not a stand-in)
        assert session.closed
        await until(lambda: "reading back" in tune.guard_text.text(), 30, "the countdown's end")
        await until(lambda: "could not be reached" in tune.guard_text.text(), 40, "the tries")
        assert "puts the settings back" in tune.guard_text.text()
        # nothing read yet: the history does not guess
        assert stored_state(window, device_id, applied.id) != "reverted"
        # Connect again (the host key is known now: no question): the state is read back.
        page = window.page("connect")
        assert isinstance(page, ConnectPage)
        window.go("connect")
        _fill(page, lab.host, lab.port, lab.user, lab.password)
        page.connect_button.click()
        await until(lambda: "reverted the settings" in tune.guard_text.text(), 60, "read back")
        assert controller.unread_guard is None
        assert stored_state(window, device_id, applied.id) == "reverted"

    drive(scenario(), timeout=240)
