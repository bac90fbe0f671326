"""Walk 14, problem 1, against the pi4-ax88179 lab: while Tune & Measure measures its tweaks
under the guard, the Tune page and the status bar show that trial (as the flow's tuning calls
read it back) with one countdown, and nothing on the page offers another action; the Pi has the
tweaks in force meanwhile (read in the lab itself). The offscreen tests of every state are in
test_tune_follows_state.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.inspect_page import InspectPage
from sbctune.ui.pages.tune_page import TunePage
from sbctune.workflow import FlowResult
from tests.gui.conftest import until
from tests.gui.lab_steps import connect_and_inspect, open_tune
from tests.gui.test_wizard_lab import ONE_TRIAL
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

GOVERNOR = "cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"


def test_during_the_flows_trial_the_tune_page_shows_it_with_the_countdown(
    lab_factory: Callable[..., LabInfo],
    window: MainWindow,
    drive: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lab = lab_factory("pi4-ax88179")
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: ONE_TRIAL)
    inspect, tune = window.page("inspect"), window.page("tune")
    assert isinstance(inspect, InspectPage) and isinstance(tune, TunePage)
    seen: dict[str, Any] = {}
    finished: list[FlowResult] = []
    window.flow.finished.connect(finished.append)

    def look(step: str, status: str, _detail: str) -> None:
        """When the flow starts measuring again: what the window shows, and the Pi has."""
        if (step, status) != ("measure_again", "started"):
            return
        found = re.search(r"(\d+) s", window.guard_label.text())
        buttons = (tune.confirm_button, tune.revert_button, tune.again_button,
                   tune.apply_button, tune.reload_button)  # fmt: skip
        seen.update(
            card=not tune.guard_card.isHidden(),
            words=tune.guard_text.text(),
            outcomes=tune.outcomes.text(),
            countdown=not tune.countdown.isHidden(),
            page_seconds=tune.countdown.value(),
            bar_seconds=int(found.group(1)) if found else None,
            bar=window.guard_label.text(),
            leftover=not tune.leftover.isHidden(),
            enabled=[b.text() for b in buttons if b.isEnabled()],
            marks=[r.tweak_id for r in tune.tweak_rows if not r.in_force_badge.isHidden()],
            governor=in_lab(lab, GOVERNOR).strip(),
        )

    window.flow.step.connect(look)

    async def run() -> None:
        await connect_and_inspect(window, lab)
        await open_tune(window)  # the rows, so their marks can be seen
        inspect.go.click()  # "Tune & Measure"
        await until(lambda: len(finished) == 1 and not window.flow.running, 400, "the flow")
        await window.flow.wait()

    drive(run(), timeout=600)
    assert seen, "the flow measured again"
    assert seen["card"] and seen["countdown"], seen
    assert seen["words"].startswith("On trial under the guard while Tune & Measure"), seen
    assert "CPU frequency governor: performance: applied" in seen["outcomes"], seen
    assert seen["governor"] == "performance"  # what the page says is what the Pi has
    assert seen["page_seconds"] == seen["bar_seconds"] and seen["page_seconds"] > 0, seen
    assert not seen["leftover"] and seen["enabled"] == [], seen
    assert "cpu-governor-performance" in seen["marks"], seen
    # One trial gives no interval: the flow reverted. The page says so, with what was before.
    assert finished[0].tuning is None
    assert in_lab(lab, GOVERNOR).strip() == "ondemand"
    assert tune.guard_card.isHidden() or "no longer in force" in tune.guard_text.text()
    assert window.guard_label.isHidden()
