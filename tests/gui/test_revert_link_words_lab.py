"""Walk 22: Revert in the window says what the Pi saw of the link a restored value drops, as
apply does and as `sbctune tune revert` does ("the link of eth1 dropped and came back within a
second"). Before, the window's log went from the apply's lines straight to "tuning reverted":
the user was not told that the port had gone down and was back (cm4-i340-igb, eth1, igb's ring
change: igb_set_ringparam's igb_down/igb_up)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import connect_via_dialog
from tests.lab_support import forget_session

pytestmark = [pytest.mark.lab, pytest.mark.slow]

BACK = "the link of eth1 dropped and came back within"


def test_revert_says_the_link_came_back(
    lab_factory: Callable[..., LabInfo], window: MainWindow, drive: Callable[..., Any]
) -> None:
    lab = lab_factory("cm4-i340-igb")
    tune = window.page("tune")
    assert isinstance(tune, TunePage)

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.inspection.choose_nic("eth1")  # a test port, not the one SSH runs over
        window.go("tune")
        await until(lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks")
        for row in tune.tweak_rows:  # only the rings, whose change drops eth1's link
            row.check.setChecked(row.tweak_id == "nic-rings")
        assert tune.selected() == ["nic-rings"]
        tune.apply_button.click()
        await until(lambda: window.state.tuning_state == "guarded", 120, "the rings applied")
        applied = window.state.tuning
        assert applied is not None
        try:
            log = tune.events.toPlainText()
            assert BACK in log, log  # apply said it (before this change too)
            tune.revert_button.click()
            await until(lambda: window.state.tuning_state == "reverted", 60, "the revert")
            after = tune.events.toPlainText()[len(log) :]
            assert BACK in after, after
            # and before the wait, as apply does (walk s23: the revert was silent until then)
            ahead = "the link of eth1 drops for about"
            assert ahead in after and after.index(ahead) < after.index(BACK), after
        finally:
            forget_session(applied.id)

    drive(scenario(), timeout=300)
