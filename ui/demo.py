"""`sbctune gui --demo [TARGET]`: the window runs the one-click flow by itself.

With a target, it fills the Connect page with it (the password from SBCTUNE_PASSWORD), connects
(an unknown host key is shown for the user to confirm, as always), inspects and starts
"Tune & Measure". Without one it first brings up the virtual Pi lab (Linux, root) and fills the
form with the lab's address, user and password; that lab was made just now, so its fresh host key
is trusted without asking and kept in a file of the lab's own. The lab is taken down when the
window closes (`Demo.close`).

`--screenshots DIR` makes it a scripted run (the Windows lane drives the Windows program with
it): when the flow has ended, every page is saved as a PNG in DIR, the window closes, and the
exit status says whether the flow got through (`Demo.exit_code`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.errors import LabLeftOut, LabNeedsLinux, UserError
from sbctune.measure.plans import Plan, plan_named, presets
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.wording import counted
from sbctune.workflow import Problem, problem_from

if TYPE_CHECKING:  # the Windows and macOS bundles leave the lab out: typing only here
    from sbctune.lab.model import LabInfo

DEFAULT_PROFILE = "pi4-ax88179"
DEFAULT_LAB = "demo-gui"  # + this process's id: two demos at once each get a lab of their own


def own_lab_name() -> str:
    """A lab name of this process's own (as `sbctune demo`'s): a second window's demo beside a
    first gets a second lab (its own addresses), never "already up" nor the first's lab."""
    return f"{DEFAULT_LAB}-{os.getpid()}"


STEP_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class DemoOptions:
    target: str | None  # [user@]host[:port] of a real Pi; None: the virtual Pi lab
    plan: Plan
    profile: str = DEFAULT_PROFILE
    lab_name: str = field(default_factory=own_lab_name)
    screenshots: Path | None = None  # save every page here when the flow ends, then close


def parse_demo_args(args: list[str]) -> DemoOptions:
    """`--demo [TARGET] [--plan NAME] [--duration S] [--omit S]` (the arguments after `gui`)."""
    parser = argparse.ArgumentParser(prog="sbctune gui", add_help=False)
    parser.add_argument("--demo", nargs="?", const="", default=None, metavar="TARGET")
    parser.add_argument("--plan", default="quick", choices=sorted(presets()))
    parser.add_argument("--duration", type=int, help="seconds per test (default: the plan's)")
    parser.add_argument("--omit", type=int, help="ramp-up seconds left out (default: the plan's)")
    parser.add_argument("--trials", type=int, help="trials per test (default: the plan's)")
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--screenshots", type=Path, default=None)
    try:
        parsed = parser.parse_args(args)
    except SystemExit:
        raise UserError(
            f"Unknown options for the demo: {' '.join(args)}",
            "Use: sbctune gui --demo [USER@HOST[:PORT]] [--plan quick|thorough] [--duration S]",
        ) from None
    plan = plan_named(parsed.plan).with_overrides(
        duration=parsed.duration, omit=parsed.omit, trials=parsed.trials
    )
    return DemoOptions(parsed.demo or None, plan, parsed.profile, screenshots=parsed.screenshots)


class Demo:
    """Drives the window through Connect → Inspect → Tune & Measure, as a user would."""

    def __init__(self, window: MainWindow, options: DemoOptions) -> None:
        self.window = window
        self.options = options
        self.lab: LabInfo | None = None
        self.exit_code = 0  # with --screenshots: 1 when the flow did not get through
        self._outcome: str | None = None  # "finished" or the problem's message

    def _connect_page(self) -> ConnectPage:
        return self.window.connect_page

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(f"Demo: {text}", 20000)

    async def run(self) -> None:
        try:
            await self._run()
        except Exception as exc:  # any failure is shown: never a window stuck on a step
            self._failed(problem_from(exc))
            self._outcome = problem_from(exc).message
        if self.options.screenshots is not None:
            await self._shoot_and_close(self.options.screenshots)

    async def _shoot_and_close(self, folder: Path) -> None:
        from sbctune.ui.demo_shots import save_every_page

        try:
            if self._outcome is None and self.window.flow.running:
                await self.window.flow.wait()
            saved = await save_every_page(self.window, folder)
            self.exit_code = 0 if self._outcome == "finished" else 1
            print(f"sbctune demo: {self._outcome or 'did not get to Tune & Measure'}; "
                  f"{counted(len(saved), 'page')} saved in {folder}", flush=True)  # fmt: skip
        except Exception as exc:  # a page that did not render: say so, never hang open
            self.exit_code = 1
            print(f"sbctune demo: the pages could not be saved: {exc}", flush=True)
        finally:
            self.window.close()

    def _failed(self, problem: Problem) -> None:
        self.window.go("connect")
        self._connect_page().problem.show_problem(problem.message, problem.hint)
        self._say(problem.message)

    async def _run(self) -> None:
        window, page = self.window, self._connect_page()
        window.go("connect")
        lab_keys: Path | None = None
        if self.options.target is None:
            self._say(f"bringing up the virtual Pi lab ({self.options.profile})…")
            page.status.setText("Bringing up the virtual Pi lab…")
            self.lab = await self._lab_up()
            lab = self.lab
            page.fill(lab.host, lab.port, lab.user)
            page.use_password.setChecked(True)
            page.password.setText(lab.password)
            lab_keys = Path(lab.state_dir) / "demo_gui_known_hosts"
        else:
            page.host.setEditText(self.options.target)
            page.use_password.setChecked(True)
            page.password.setText(os.environ.get("SBCTUNE_PASSWORD", ""))
        self._say("connecting…")
        page.problem.clear()
        window.connection.connect_to(page.request(), lab_known_hosts=lab_keys)
        # The host-key dialog may wait for the user (a real Pi): no time limit while it is open.
        while window.connection.running:
            await asyncio.sleep(0.1)
        if window.state.session is None:
            return  # the Connect page shows why
        if window.state.inventory is None and window.current_key() != "inspect":
            # Tuning an earlier run left on the Pi (kept, or on trial) opens the Tune page,
            # where the user settles it before anything is read; the scripted demo goes on,
            # and its flow puts that tuning back before its baseline (walk 16: it waited on
            # Tune for an inspection that never started, then gave up).
            window.go("inspect")
            self._say("inspecting… (tuning an earlier run left on the Pi is put back first)")
        else:
            self._say("inspecting…")
        await self._until(lambda: window.state.inventory is not None, "the inspection")
        if window.state.nic is None:
            raise UserError("The Pi has no network interface to test.", "")
        self._say("Tune & Measure…")
        window.flow.finished.connect(lambda _result: self._ended("finished"))
        window.flow.failed.connect(lambda problem: self._ended(problem.message))
        # Nothing is asked in a scripted run: tweaks that would drop the link stay held back.
        window.tune_and_measure(self.options.plan, ask=False)

    def _ended(self, outcome: str) -> None:
        self._outcome = outcome

    async def _lab_up(self) -> LabInfo:
        LabNeedsLinux.refuse_unless_linux()
        try:
            import sbctune.lab as lab  # Linux-only; imported only when the demo uses it
        except ModuleNotFoundError as exc:
            if exc.name == "sbctune.lab":  # a bundle without the lab (Windows, macOS)
                raise LabLeftOut() from None
            raise

        def up() -> LabInfo:
            return lab.up(self.options.profile, name=self.options.lab_name)

        try:
            # A few seconds of namespaces and sshd: on a worker thread, the window stays live.
            return await asyncio.get_running_loop().run_in_executor(None, up)
        except lab.LabError as exc:
            raise UserError(
                f"The virtual Pi lab could not start: {exc}",
                "The lab needs Linux, root, iperf3 and OpenSSH (bash scripts/demo.sh sets them "
                "up); or give a Pi: sbctune gui --demo pi@raspberrypi.local",
            ) from None

    async def _until(self, ready: Callable[[], bool], what: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STEP_TIMEOUT_S
        problem = self.window.inspect_page.problem
        while not ready():
            if problem.isVisible():
                raise UserError(problem.message.text(), problem.hint.text())
            if loop.time() > deadline:
                raise UserError(f"The demo gave up waiting for {what}.", "")
            await asyncio.sleep(0.1)

    def close(self) -> None:
        """Take down the lab this demo brought up (the window has closed)."""
        if self.lab is None:
            return
        from sbctune import lab

        with contextlib.suppress(lab.LabError):
            lab.down(self.lab.name)
        self.lab = None
