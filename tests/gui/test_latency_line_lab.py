"""The latency line under the throughput plot, during a real lab measurement on the GUI's own
event loop: the runner's LiveLatency events reach the measuring page, which draws them."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.measure.plans import plan_named
from sbctune.measure.runner import measure
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage, latency_text
from tests.gui.conftest import SCREENSHOTS
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PLAN = plan_named("quick").with_overrides(duration=3, omit=1, streams=4, trials=1)


def _finite(ys: Any) -> list[float]:
    return [float(y) for y in (ys if ys is not None else []) if not math.isnan(float(y))]


def test_the_latency_line_shows_the_queue_while_the_lab_link_is_loaded(
    lab_factory: Any, window: MainWindow, drive: Callable[..., Any], tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi1b-smsc95xx")  # 94 Mbit/s: a busy machine still fills it
    page: MeasurePage = window.baseline_page
    live = LiveMeasurement(PLAN)
    page.attach(live)
    seen: list[str] = []

    async def scenario() -> None:
        async with await connect_to_lab(lab, tmp_path) as session:
            task = asyncio.ensure_future(
                measure(session, PLAN, nic=lab.test_nic.name, on_event=live.feed)
            )
            for _ in range(400):  # the page redraws on its timer while the run goes on
                if task.done():
                    break
                await asyncio.sleep(0.1)
                seen.append(page.latency_now.text())
            run = await task
            page.stop_live("Done.")  # what show_record does with the stored run
            page.show_latency(run.latency)

    drive(scenario(), timeout=180)
    page.refresh()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    card = page.latency.parentWidget()  # the Throughput card: both plots, "Latency now"
    card.grab().save(str(SCREENSHOTS / "measure_latency_lab.png"))  # for a person to look at
    loaded = _finite(page.latency.loaded.getData()[1])
    idle = _finite(page.latency.idle.getData()[1])
    assert len(idle) >= 10 and len(loaded) >= 20, (len(idle), len(loaded))
    # What the user sees: the line under load well above the idle dots.
    assert sorted(loaded)[len(loaded) // 2] > 4 * sorted(idle)[len(idle) // 2] + 2.0
    assert any("ms under load" in text for text in seen), seen[-5:]
    assert any("ms idle" in text for text in seen)
    assert page.latency_now.text().startswith("The link queues ")  # the run's verdicts
    # The plot shares the throughput plot's time axis.
    assert page.latency.getViewBox().viewRange()[0] == page.throughput.getViewBox().viewRange()[0]


def test_latency_text_says_what_the_probes_got() -> None:
    assert latency_text(None, None, 0) == "Latency: –"
    assert latency_text(None, None, 3) == "Latency: – (probes not answered yet)"
    assert (
        latency_text(12.34, 0.5, 0)
        == "Latency, median of the last 5 s: 12.3 ms under load, 0.5 ms idle"
    )
    assert (
        latency_text(None, 0.5, 2) == "Latency, median of the last 5 s: 0.5 ms idle, 2 probes lost"
    )
