"""`sbctune gui --demo PI` on a Pi that still has tuning kept from an earlier run (walk 16):
connect opens the Tune page with that session, and the demo used to wait there for an
inspection that never started, then gave up ("The demo gave up waiting for the inspection").
Now it inspects, and its flow puts the kept tuning back before a baseline that is one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune import tuning
from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.ui import demo as demo_module
from sbctune.ui.demo import Demo, DemoOptions
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import ONE_TRIAL, _host_key_dialog
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"


def test_the_demo_runs_on_a_pi_with_tuning_kept_from_an_earlier_run(
    lab: LabInfo,
    window: MainWindow,
    drive: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SBCTUNE_PASSWORD", lab.password)
    # Before the fix the demo waited the whole step time on Tune: 30 s shows it as well.
    monkeypatch.setattr(demo_module, "STEP_TIMEOUT_S", 30.0)
    demo = Demo(window, DemoOptions(f"{lab.user}@{lab.host}:{lab.port}", ONE_TRIAL))

    async def governor() -> str:
        async with await connect_to_lab(lab, tmp_path) as session:
            return (await session.run(["cat", GOVERNOR])).stdout.strip()

    async def scenario() -> None:
        before = await governor()
        async with await connect_to_lab(lab, tmp_path) as session:  # the earlier run, kept
            inventory, _ = await inspect_host(session)
            chosen = await tuning.plan(session, inventory, "eth1", ["cpu-governor-performance"])
            kept = await tuning.apply(session, chosen, guard_seconds=600)
            await tuning.confirm(session, kept.id)
        assert await governor() == "performance" != before

        window.runner.start(demo.run(), name="demo")
        connect = window.page("connect")
        assert isinstance(connect, ConnectPage)
        while not (window.state.after is not None and not window.flow.running):
            dialog = _host_key_dialog(window)
            if dialog is not None:
                dialog.trust.click()  # a real Pi's key is asked about, as always
            assert not connect.problem.isVisible(), connect.problem.message.text()
            await asyncio.sleep(0.1)
        await until(lambda: window.current_key() == "results", 10, "the results page")
        baseline = window.state.baseline
        assert baseline is not None
        # The flow put the kept tuning back first: its baseline ran with nothing in force.
        state = baseline.tuning_state or {}
        assert not state.get("tweaks"), state
        async with await connect_to_lab(lab, tmp_path) as session:
            assert await tuning.find_leftover(session) is None

    try:
        drive(scenario(), timeout=240)
    finally:
        drive(window.runner.shutdown(), timeout=60)
        drive(window.connection.close_session(), timeout=30)
