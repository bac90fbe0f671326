"""Walk 22 (1366 × 768 at 150 %, lab pi5-macb): ticking "Also apply changes that briefly drop
the network link" planned again, and the page was left scrolled to its last tweak: the box the
user had just ticked, and Apply, were out of sight, and the next click landed on a card. The
view stays on the box, which keeps the focus."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import connect_via_dialog

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def test_ticking_the_consent_keeps_the_box_in_view(
    lab_factory: Callable[..., LabInfo], window: MainWindow, drive: Callable[..., Any]
) -> None:
    lab = lab_factory("pi5-macb")
    tune = window.page("tune")
    assert isinstance(tune, TunePage)

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("tune")
        await until(lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks")
        window.activateWindow()
        tune.verticalScrollBar().setValue(0)
        tune.consent_box.setFocus()
        tune.consent_box.click()
        await until(lambda: not window.tuning.running and tune.consent_box.isEnabled(), 60,
                    "the plan with the consent")  # fmt: skip
        await asyncio.sleep(0.5)  # the new rows laid out
        top = tune.consent_box.mapTo(tune.widget(), tune.consent_box.rect().topLeft()).y()
        shown = tune.verticalScrollBar().value()
        assert shown <= top <= shown + tune.viewport().height(), (shown, top)
        apply_at = tune.apply_button.mapTo(tune.widget(), tune.apply_button.rect().topLeft()).y()
        assert shown <= apply_at, (shown, apply_at)  # Apply, the next step, in sight too
        assert window.focusWidget() is tune.consent_box

    drive(scenario(), timeout=240)
