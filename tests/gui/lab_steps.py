"""The steps the lab GUI tests take in the real window as a user does, one helper each: connect
through the dialog and wait for the inventory, open Tune and wait for its tweaks, apply under
the guard, keep; and the "apply → keep" that the tuning-in-force tests start
from, checked on the Pi itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from sbctune.lab.model import LabInfo
from sbctune.measure.plans import Plan
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import connect_via_dialog

TWEAK = "cpu-governor-performance"  # ticked by default on every lab profile, and put back
PiReads = Callable[[], Awaitable[tuple[str, str | None]]]  # the `pi_reads` fixture (conftest)


def measuring_with(
    window: MainWindow, key: str, plan: Plan, monkeypatch: pytest.MonkeyPatch
) -> MeasurePage:
    """The measuring page `key` ("baseline" or "again"), set to run `plan` (a short one)."""
    page = window.page(key)
    assert isinstance(page, MeasurePage)
    monkeypatch.setattr(page, "chosen_plan", lambda: plan)
    return page


async def connect_and_inspect(window: MainWindow, lab: LabInfo) -> None:
    """Connect through the dialog (trusting the lab's key) and wait for the inventory."""
    await connect_via_dialog(window, lab)
    await until(lambda: window.state.inventory is not None, 60, "the inventory")


async def open_tune(window: MainWindow) -> TunePage:
    """The Tune page, shown, once it has listed the tweaks for this Pi."""
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    window.go("tune")
    await until(lambda: bool(tune.tweak_rows) and not window.tuning.running, 60, "the tweaks")
    return tune


async def apply_ticked(window: MainWindow, tune: TunePage) -> None:
    """Apply what is ticked; wait until it is applied under the guard."""
    tune.apply_button.click()
    await until(lambda: window.state.tuning_state == "guarded", 120, "the tuning applied")


async def keep(window: MainWindow, tune: TunePage) -> None:
    """Keep the tuning on trial; wait until the session is confirmed."""
    tune.confirm_button.click()
    await until(lambda: window.state.tuning_state == "confirmed", 60, "the keep")


async def apply_and_keep(window: MainWindow, pi_reads: PiReads) -> TunePage:
    """On a connected window: open Tune, apply the default tweaks (the governor among them) and
    keep them; the Pi itself (`pi_reads`, tests/gui/conftest.py) then reads back the governor
    and a confirmed session."""
    tune = await open_tune(window)
    assert TWEAK in tune.selected(), tune.selected()
    await apply_ticked(window, tune)
    await keep(window, tune)
    assert await pi_reads() == ("performance", "confirmed")
    return tune
