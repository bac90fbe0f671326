"""Driving qasync's loop: no task may ever be stepped without a running asyncio loop.

qasync's own run_until_complete lets Qt process events once more after the asyncio loop has
stopped: a task stepped then cannot call asyncio.get_running_loop(), and asyncio.wait_for
raised RuntimeError there, leaving "coroutine 'RemoteProcess.communicate' was never awaited"
at the end of the GUI tests. `run_until_done` (the app's and `drive`'s) stops cleanly.
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QApplication

from sbctune.ui.app import event_loop, run_until_done


def test_callbacks_never_run_outside_the_running_loop(gui_app: QApplication) -> None:
    loop = event_loop(gui_app)
    seen: list[str] = []

    def check() -> None:  # what a task's next step would find
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            seen.append("no running loop")
        else:
            seen.append("running")

    async def work() -> None:
        # Queued so that it comes due just after the loop is told to stop.
        loop.call_soon(loop.call_soon, check)

    for _ in range(5):
        run_until_done(loop, work())
    run_until_done(loop, asyncio.sleep(0.05))  # whatever was still queued runs now
    assert seen == ["running"] * 5


def test_run_until_done_returns_the_result_and_raises_the_error(gui_app: QApplication) -> None:
    loop = event_loop(gui_app)

    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    async def fail() -> None:
        raise ValueError("the work failed")

    assert run_until_done(loop, answer()) == 42
    try:
        run_until_done(loop, fail())
    except ValueError as exc:
        assert str(exc) == "the work failed"
    else:
        raise AssertionError("the error was not raised")
