"""The big "this test" figures during a real lab measurement: while a test runs, its direction's
figure is never a bare "–" (as it was for the first 5 of the 8 s of each lab test: 2 s of idle
probes, the connect, the ramp-up second and the first counted second) and never an omitted
second: it says what the test does until its first counted second, then that test's mean."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.measure.iperf_output import Direction
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import Event, LiveInterval, measure
from sbctune.measure.runner import TestFinished as Finished
from sbctune.measure.runner import TestStarted as Started
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PLAN = plan_named("quick").with_overrides(trials=1)  # 2 tests, 5 s each: about 20 s


def test_both_big_figures_say_what_the_running_test_does_on_the_lab(
    lab_factory: Any, window: MainWindow, drive: Callable[..., Any], tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi1b-smsc95xx")  # 94 Mbit/s: a busy machine still fills it
    page: MeasurePage = window.baseline_page
    live = LiveMeasurement(PLAN)
    page.attach(live)
    running: list[Direction] = []
    counted: dict[Direction, int] = {"pi_to_pc": 0, "pc_to_pi": 0}
    # What the running direction's big figure said, and whether a counted second had come.
    shown: dict[Direction, list[tuple[bool, str]]] = {"pi_to_pc": [], "pc_to_pi": []}

    def feed(event: Event) -> None:
        live.feed(event)
        if isinstance(event, Started):
            running[:] = list(event.spec.directions)
            for direction in running:
                counted[direction] = 0
        elif isinstance(event, Finished):
            running.clear()
        elif isinstance(event, LiveInterval) and not event.interval.omitted:
            counted[event.direction] += 1

    async def scenario() -> None:
        async with await connect_to_lab(lab, tmp_path) as session:
            task = asyncio.ensure_future(
                measure(session, PLAN, nic=lab.test_nic.name, on_event=feed)
            )
            for _ in range(600):  # bounded: 60 s
                if task.done():
                    break
                await asyncio.sleep(0.1)
                page.refresh()
                for direction in running:
                    big = page.now_pi_to_pc if direction == "pi_to_pc" else page.now_pc_to_pi
                    shown[direction].append((counted[direction] > 0, big.text()))
            await task

    drive(scenario(), timeout=120)
    for direction in ("pi_to_pc", "pc_to_pi"):
        texts = shown[direction]
        assert texts, direction
        # While its test runs the figure is never a bare dash: first what the test does
        # (the idle link's probes, then the left-out ramp-up), then the counted seconds' mean.
        assert "–" not in [t for _c, t in texts], (direction, texts)
        waiting = {t for c, t in texts if not c}
        assert waiting <= {"starting…", "warming up…"}, (direction, waiting)
        figures = [t for c, t in texts if c]
        assert figures and all(t.endswith("Mbit/s") for t in figures), (direction, texts)
