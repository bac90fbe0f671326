"""The big "PC → Pi, this test" figure during a real lab measurement: while a PC → Pi test runs
it shows the running test's mean (never "–" once counted seconds came in, never an omitted
second), as the Pi → PC figure does."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.measure.iperf_output import Direction
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import Event, LiveInterval, TestStarted, measure
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PLAN = plan_named("quick").with_overrides(trials=1)


def test_both_big_figures_show_the_running_tests_mean_on_the_lab(
    lab_factory: Any, window: MainWindow, drive: Callable[..., Any], tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi1b-smsc95xx")
    page: MeasurePage = window.baseline_page
    live = LiveMeasurement(PLAN)
    page.attach(live)
    running: list[Direction] = []
    counted: dict[Direction, int] = {"pi_to_pc": 0, "pc_to_pi": 0}
    shown: dict[Direction, list[str]] = {"pi_to_pc": [], "pc_to_pi": []}

    def feed(event: Event) -> None:
        live.feed(event)
        if isinstance(event, TestStarted):
            running[:] = list(event.spec.directions)
        if isinstance(event, LiveInterval) and not event.interval.omitted:
            counted[event.direction] += 1

    async def scenario() -> None:
        async with await connect_to_lab(lab, tmp_path) as session:
            task = asyncio.ensure_future(
                measure(session, PLAN, nic=lab.test_nic.name, on_event=feed)
            )
            for _ in range(600):
                if task.done():
                    break
                await asyncio.sleep(0.1)
                page.refresh()
                for direction in running:
                    big = page.now_pi_to_pc if direction == "pi_to_pc" else page.now_pc_to_pi
                    if counted[direction] and live.current_spec is not None:
                        shown[direction].append(big.text())
            await task

    drive(scenario(), timeout=120)
    for direction in ("pi_to_pc", "pc_to_pi"):
        assert counted[direction] >= 2, (direction, counted)  # live seconds came in
        assert shown[direction], direction
        assert "–" not in shown[direction], (direction, shown[direction])
