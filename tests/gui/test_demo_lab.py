"""`sbctune gui --demo`: the window brings up the lab, connects, inspects and runs the one-click
flow to the Results page by itself; the lab goes down when the demo is closed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune import lab as lab_api
from sbctune.errors import UserError
from sbctune.ui.demo import Demo, DemoOptions, parse_demo_args
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.units import rate
from sbctune.workflow.keeping import NO_INTERVAL
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import ONE_TRIAL, _host_key_dialog
from tests.lab_support import NAME_PREFIX, lab_unavailable_reason, skip_or_fail

Drive = Callable[..., Any]


def test_demo_options() -> None:
    options = parse_demo_args(["--demo", "--duration", "3", "--omit", "1"])
    # a name of this process's own: a second demo beside it gets a lab of its own
    assert options.target is None and options.lab_name == f"demo-gui-{os.getpid()}"
    assert options.profile == "pi4-ax88179"
    # Every test (each direction, each of the plan's trials) takes the overrides.
    assert {(t.duration, t.omit) for t in options.plan.tests} == {(3, 1)}
    assert len(options.plan.tests) == 2 * options.plan.trials
    real = parse_demo_args(["--demo", "pi@raspberrypi.local", "--plan", "thorough"])
    assert real.target == "pi@raspberrypi.local" and real.plan.name == "thorough"
    with pytest.raises(UserError) as bad:
        parse_demo_args(["--demo", "--plan", "nonsense"])
    assert "sbctune gui --demo" in bad.value.hint


def test_scripted_demo_options() -> None:
    options = parse_demo_args(["--demo", "pi@198.18.0.2", "--trials", "1", "--screenshots", "s"])
    assert options.screenshots == Path("s")
    assert len(options.plan.tests) == 2  # one trial per direction
    assert parse_demo_args(["--demo"]).screenshots is None


def test_a_scripted_demo_that_cannot_connect_saves_every_page_and_exits_1(
    window: MainWindow, drive: Drive, tmp_path: Path
) -> None:
    """`gui --demo TARGET --screenshots DIR` (the Windows lane's gui-live): the pages as the
    user sees them, the window closed, and a failing exit status when the flow did not run."""
    shots = tmp_path / "shots"
    demo = Demo(window, DemoOptions("pi@127.0.0.1:9", ONE_TRIAL, screenshots=shots))
    drive(demo.run(), timeout=60)
    assert demo.exit_code == 1
    assert not window.isVisible()
    saved = sorted(p.name for p in shots.glob("live-*.png"))
    assert "live-connect.png" in saved and "live-results.png" in saved and len(saved) >= 9
    page = window.page("connect")
    # Why, on the Connect page (shown in live-connect.png; the window is closed now).
    assert isinstance(page, ConnectPage) and not page.problem.isHidden()
    assert page.problem.message.text()


def test_bad_demo_arguments_exit_2_with_the_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from sbctune.ui.launcher import main; "
         "sys.exit(main(['gui', '--demo', '--bogus']))"],
        capture_output=True, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Unknown options for the demo" in done.stderr


def _demo_problem(window: MainWindow, drive: Drive) -> str:
    """Runs the lab demo to its end (within the time limit: it must not hang on a step)."""
    demo = Demo(window, DemoOptions(None, ONE_TRIAL, lab_name=f"{NAME_PREFIX}never"))
    drive(demo.run(), timeout=20)
    page = window.page("connect")
    assert isinstance(page, ConnectPage) and window.current_key() == "connect"
    assert page.problem.isVisible()
    return page.problem.message.text()


@pytest.mark.parametrize("system", ["win32", "darwin"])
def test_demo_elsewhere_than_linux_says_the_lab_needs_linux(
    window: MainWindow, drive: Drive, monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    monkeypatch.setattr(sys, "platform", system)
    assert "the virtual Pi lab needs Linux" in _demo_problem(window, drive)


def test_a_demo_that_breaks_shows_why_instead_of_hanging(
    window: MainWindow, drive: Drive, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: Demo) -> None:  # the old Windows failure: not a UserError
        raise ModuleNotFoundError("No module named 'fcntl'", name="fcntl")

    monkeypatch.setattr(Demo, "_lab_up", broken)
    assert "No module named 'fcntl'" in _demo_problem(window, drive)


@pytest.mark.lab
@pytest.mark.slow
def test_demo_runs_the_flow_on_a_lab_of_its_own(window: MainWindow, drive: Drive) -> None:
    reason = lab_unavailable_reason()
    if reason:
        skip_or_fail(reason)
    # A name the lab fixtures sweep should this process die (the app's: "demo-gui-<pid>").
    name = f"{NAME_PREFIX}{os.getpid()}-demo-gui"
    demo = Demo(window, DemoOptions(None, ONE_TRIAL, lab_name=name))
    dialogs: list[object] = []

    async def scenario() -> None:
        window.runner.start(demo.run(), name="demo")
        while not (window.state.after is not None and not window.flow.running):
            if _host_key_dialog(window) is not None:
                dialogs.append(_host_key_dialog(window))
            connect = window.page("connect")
            assert isinstance(connect, ConnectPage)
            assert not connect.problem.isVisible(), connect.problem.message.text()
            await asyncio.sleep(0.1)
        await until(lambda: window.current_key() == "results", 10, "the results page")

    try:
        drive(scenario(), timeout=300)
        info = demo.lab
        assert info is not None
        page = window.page("connect")
        assert isinstance(page, ConnectPage)
        assert page.host.currentText() == info.host
        assert page.user.text() == info.user and page.password.text() == info.password
        assert not dialogs, "the demo's own fresh lab key is trusted without a dialog"
        assert info.host in (Path(info.state_dir) / "demo_gui_known_hosts").read_text(
            encoding="utf-8"
        )
        state = window.state
        # One trial: no interval, no gain shown, so the flow kept nothing (and says so).
        assert state.tuning is None and state.model.keep is not None
        assert state.model.keep.reason == NO_INTERVAL
        assert state.baseline is not None and state.after is not None
        results = window.page("results")
        assert isinstance(results, ResultsPage)
        assert not results.problem.isVisible(), results.problem.message.text()
        units = window.settings.units
        for row, test in enumerate(window.history.run(state.after.id or 0).tests):
            item = results.table.item(row, 3)
            assert item is not None and item.text() == rate(test.mean_mbps, units)
    finally:
        drive(window.runner.shutdown(), timeout=60)
        drive(window.connection.close_session(), timeout=30)
        demo.close()
    assert lab_api.status(name).state == "absent", "the demo's lab is taken down"
