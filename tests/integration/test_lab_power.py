"""Throttling in the lab: the lab's get_throttled and thermal zone where a Pi kernel has them,
changed mid-measurement from the host, reach the sampler's per-test summary and the advice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice import Advice, advise
from sbctune.advice.inspect import inspect_host
from sbctune.catalog import load_catalog
from sbctune.history import History
from sbctune.lab.power import set_power
from sbctune.measure import runner
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import Plan
from sbctune.measure.plans import TestSpec as Spec
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

THROTTLED = "/sys/devices/platform/soc/soc:firmware/get_throttled"
ZONE = "/sys/class/thermal/thermal_zone0"
ONE_TEST = Plan(
    name="custom",
    title="Pi to PC, 5 s",
    tests=(Spec(mode="half", directions=("pi_to_pc",), duration=5, omit=1, streams=2),),
)


async def test_the_lab_shows_the_power_files_in_the_kernels_formats(
    lab: Any, tmp_path: Path
) -> None:
    async with await connect_to_lab(lab, tmp_path) as session:
        before = await session.run(["cat", THROTTLED])
        set_power(lab.state_dir, throttled="0x50005", temp_c=83.5)
        after = await session.run(["cat", THROTTLED, f"{ZONE}/temp", f"{ZONE}/type"])
        refused = await session.run(["sh", "-c", f"echo 0 > {THROTTLED}"])
        others = await session.run(["ls", "/sys/devices/platform"])
    assert before.stdout == "0\n"
    assert after.stdout == "50005\n83500\ncpu-thermal\n"
    assert refused.exit_code != 0  # read-only, as on a Pi
    names = others.stdout.split()
    assert "soc" in names and len(names) > 1  # the host's platform devices are still there


async def _measure_and_advise(lab: Any, tmp_path: Path, flags: str) -> tuple[Advice, Any]:
    """One 5 s test; `flags` appear 2 s into it (and go away after it)."""
    set_power(lab.state_dir, throttled=0, temp_c=55.0)
    changes: list[asyncio.Task[None]] = []

    async def throttle_soon() -> None:
        await asyncio.sleep(2.0)
        set_power(lab.state_dir, throttled=flags, temp_c=83.5 if flags != "0" else 56.0)

    def on_event(event: runner.Event) -> None:
        if isinstance(event, runner.TestStarted):
            changes.append(asyncio.ensure_future(throttle_soon()))

    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        run = await runner.measure(session, ONE_TEST, nic=lab.test_nic.name, on_event=on_event)
        target, user = session.target, session.username
    await asyncio.gather(*changes)
    set_power(lab.state_dir, throttled=0, temp_c=55.0)
    with History.open(tmp_path / f"history-{flags}.sqlite") as history:
        record = history.run(save_measurement(history, target, user, run, ONE_TEST))
    return advise(inventory, [record], load_catalog()), run


async def test_under_voltage_during_a_measurement_is_found_and_absent_otherwise(
    lab: Any, tmp_path: Path
) -> None:
    advice, run = await _measure_and_advise(lab, tmp_path, "0x50005")
    power = run.pi_cpu["0"]["power"]
    assert power["events"] == ["under-voltage", "throttled"], power
    assert power["max_temp_c"] == 83.5
    assert 0.0 < power["first_event_s"] < 3.0  # 2 s into the test, 1 s of it omitted
    finding = next(f for f in advice.findings if f.id == "throttled-during-test")
    assert "get_throttled 0x50005" in finding.evidence[0]
    assert "Pi → PC" in finding.evidence[0] and "SoC up to 83.5 °C" in finding.evidence[0]
    top = advice.top
    assert top is not None and top.kind == "power" and "power supply" in top.title, top
    assert top.title.endswith(", then measure again")

    clean, run = await _measure_and_advise(lab, tmp_path, "0")
    assert run.pi_cpu["0"]["power"]["events"] == []
    assert "throttled-during-test" not in [f.id for f in clean.findings]
    assert clean.top is not None and clean.top.kind != "power", clean.top
