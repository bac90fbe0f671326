"""The Measure page's CPU card in the virtual Pi lab says whose cores it shows: "Lab host CPU,
2 cores (this computer's, not the Pi's 4)", never "The Pi's CPU" with the host's 2 cores while
Inspect showed the Pi's 4 (the lab's marker, sbctune.lab.cpu_marker). Samples are this
machine's real counters (tests/lab_cpu_samples.py)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.measure.plans import plan_named
from sbctune.measure.run_events import PiLoad
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads this machine's /proc (Linux)"
)


def test_the_cpu_card_names_the_lab_hosts_cores(window: MainWindow) -> None:
    from tests.lab_cpu_samples import host_cores, real_sample

    page = window.baseline_page
    live = LiveMeasurement(plan_named("quick"), 100.0)
    page.show_still(live)
    assert page.cpu_card.title.text() == "The Pi's CPU, per core"
    live.feed(PiLoad(real_sample(f"host_cpus={host_cores()} pi_cpus=4")))
    page.refresh()
    cores = f"{host_cores()} core{'' if host_cores() == 1 else 's'}"
    assert page.cpu_card.title.text() == f"Lab host CPU, {cores} (this computer's, not the Pi's 4)"
    assert "virtual Pi lab" in page.cpu_note.text()
    assert len(live.load.cpus) == host_cores()  # type: ignore[union-attr]

    live.feed(PiLoad(real_sample(None)))  # a real Pi: no marker, its own cores
    page.refresh()
    assert page.cpu_card.title.text() == "The Pi's CPU, per core"
    assert "virtual Pi lab" not in page.cpu_note.text()


@pytest.mark.lab
def test_in_the_lab_the_cpu_card_names_the_lab_hosts_cores(
    lab: Any, window: MainWindow, drive: Callable[..., Any], tmp_path: Path
) -> None:
    """Against a running lab (pi4-ax88179, a 4-core Pi 4): the product's sampler over SSH, its
    samples fed to the page as a measurement does (PiLoad)."""
    from sbctune.lab import load_profile
    from sbctune.measure.sampler import PiSampler
    from tests.lab_cpu_samples import host_cores
    from tests.lab_support import connect_to_lab

    page = window.baseline_page
    live = LiveMeasurement(plan_named("quick"), 100.0)
    page.attach(live)
    titles: list[str] = []

    async def scenario() -> None:
        async with await connect_to_lab(lab, tmp_path) as session:
            sampler = PiSampler(session, lab.test_nic.name, interval=0.5,
                                on_sample=lambda s: live.feed(PiLoad(s)))  # fmt: skip
            async with sampler:
                for _ in range(20):  # bounded: 2 s
                    await asyncio.sleep(0.1)
                    page.refresh()
                    titles.append(page.cpu_card.title.text())

    drive(scenario(), timeout=60)
    pis = load_profile(lab.profile).cpu.count
    cores = f"{host_cores()} core{'' if host_cores() == 1 else 's'}"
    assert titles[-1] == f"Lab host CPU, {cores} (this computer's, not the Pi's {pis})", titles
    assert set(titles) <= {"The Pi's CPU, per core", titles[-1]}  # before the first sample
    assert live.load is not None and len(live.load.cpus) == host_cores()
