"""A tuning session an earlier sbctune left on the Pi (here: applied, never confirmed, its
guard still running, as when the window was closed mid-countdown) is offered at connect:
the window opens on Tune, says what is on the Pi, and reverts it on one click."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune import tuning
from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import SCREENSHOTS, until
from tests.gui.test_wizard_lab import connect_via_dialog
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"


async def _governor(lab: LabInfo, tmp_path: Path) -> str:
    async with await connect_to_lab(lab, tmp_path) as session:
        return (await session.run(["cat", GOVERNOR])).stdout.strip()


def test_a_session_left_on_the_pi_is_offered_and_reverted(
    lab: LabInfo, window: MainWindow, drive: Callable[..., Any], tmp_path: Path
) -> None:
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    mine = tmp_path / "mine"  # our own known_hosts: the window's must still ask
    mine.mkdir()

    async def scenario() -> None:
        before = await _governor(lab, mine)
        async with await connect_to_lab(lab, mine) as session:
            inventory, _ = await inspect_host(session)
            chosen = await tuning.plan(session, inventory, "eth1", ["cpu-governor-performance"])
            left = await tuning.apply(session, chosen, guard_seconds=600)
        assert await _governor(lab, mine) == "performance" != before

        await connect_via_dialog(window, lab)
        await until(lambda: window.current_key() == "tune", 20, "the Tune page")
        card = tune.leftover
        assert card.isVisible()
        assert card.headline.text().startswith("Tuning applied 20")
        assert card.headline.text().endswith(
            " UTC (1 tweak on eth1) is waiting for confirmation."
        ), card.headline.text()
        assert left.id not in card.headline.text()
        assert "puts the values back by itself in about" in card.detail.text()
        assert card.keep_button.isVisible() and card.revert_button.isEnabled()
        assert window.state.inventory is None, "nothing is measured or read before it is settled"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(SCREENSHOTS / "leftover-tune.png"))

        card.revert_button.click()
        await until(lambda: card.next_button.isVisible(), 60, "the revert")
        assert card.headline.text() == (
            "Reverted: every value the tuning left on the Pi had changed is back."
        )
        assert not card.revert_button.isVisible() and not card.keep_button.isVisible()
        assert await _governor(lab, mine) == before
        async with await connect_to_lab(lab, mine) as session:
            assert await tuning.find_leftover(session) is None

        card.next_button.click()
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        assert window.current_key() == "inspect"

    drive(scenario(), timeout=240)
