"""Walk ux29 (800 x 600, the pi4-ax88179 lab): while a baseline ran, Measure again offered
"Measure as it is" (and Start, once tuning is in force) and Tune offered Apply: a second iperf3
run would share the link with the first and each would read the other's traffic as the Pi's
speed; a tweak applied would change the Pi under the baseline. While one page measures, the
other waits and says why, and Apply says why it waits; both come back when the test ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow


def test_a_second_test_waits_while_the_baseline_runs(
    window: MainWindow,
    gui_app: QApplication,
    drive: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate: list[asyncio.Event] = []

    async def measuring(_plan: object, revert_first: bool = False) -> None:
        gate.append(asyncio.Event())
        await gate[0].wait()  # the baseline's iperf3 runs until the test lets it end

    monkeypatch.setattr(window.state, "session", object())  # connected
    monkeypatch.setattr(window.baseline, "_run", measuring)
    window.state.model._changed("tuning")
    window.go("baseline")
    gui_app.processEvents()
    assert window.baseline_page.start_button.isEnabled()
    again = window.again_page

    async def while_it_runs() -> list[str]:
        window.baseline_page.start_button.click()
        await asyncio.sleep(0.05)
        window.go("again")
        await asyncio.sleep(0.05)
        return [
            button.text()
            for button in (again.start_button, again.as_is_button)
            if button.isVisibleTo(window) and button.isEnabled()
        ]

    offered = drive(while_it_runs())
    assert offered == [], f"Measure again offers {offered} while the baseline measures"
    assert again.waits_note.isVisibleTo(window)
    assert again.waits_note.text().startswith("A test is running on Baseline: one test at a time")
    assert "cancel it on Baseline" in again.waits_note.text()
    assert window.tune_page.apply_button.toolTip().startswith("A test is running on Baseline")
    assert not window.baseline_page.waits_note.isVisibleTo(window), "the running page says none"

    async def end() -> None:
        gate[0].set()
        await window.baseline.wait()
        await asyncio.sleep(0.05)

    drive(end())
    gui_app.processEvents()
    assert not again.waits_note.isVisibleTo(window), "the test ended: nothing to wait for"
    assert again.as_is_button.isEnabled()
    assert not window.tune_page.apply_button.toolTip().startswith("A test is running")
