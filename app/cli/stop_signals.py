"""SIGTERM and SIGHUP stop a command the way Ctrl-C does: its task is cancelled, so what was
measured is stored (marked incomplete) before the process ends.

Without this, SIGTERM (`kill`, a service manager, a logout) or SIGHUP (the terminal closed)
ended the process at once and a half-done run was lost, although Ctrl-C kept it. The exit
code is the shell's for a signal, 128 + its number. After SIGHUP the terminal is gone: what
is still printed goes to /dev/null, so a write to the dead terminal cannot stop the saving.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Coroutine
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by run_stoppable: every command installs the handlers below, and
    import asyncio  # a bundle's `inspect` runs no event loop (issue 24: ~25 ms of its start)

STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def run_stoppable(main: Coroutine[Any, Any, int]) -> int:
    """`asyncio.run(main)`, with SIGTERM and SIGHUP cancelling it like Ctrl-C."""
    import asyncio

    received: list[signal.Signals] = []

    async def guarded() -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        added = []
        for sig in STOPPING:
            try:
                loop.add_signal_handler(sig, _stop, sig, task, received)
                added.append(sig)
            except (NotImplementedError, RuntimeError):  # Windows: no loop signal handlers
                pass
        try:
            return await main
        finally:
            for sig in added:
                loop.remove_signal_handler(sig)  # posix-only: those added above

    try:
        code = asyncio.run(guarded())
    except asyncio.CancelledError:
        if not received:
            raise
        return 128 + int(received[0])
    return 128 + int(received[0]) if received else code


def _stop(sig: signal.Signals, task: asyncio.Task[int], received: list[signal.Signals]) -> None:
    if received:  # a second signal while saving: the first one is being handled
        return
    received.append(sig)
    if sig == getattr(signal, "SIGHUP", None):
        _away_from_the_closed_terminal()
    print(f"sbctune: {sig.name} received: stopping, keeping what was measured", file=sys.stderr)
    why = "the terminal was closed (SIGHUP)" if sig.name == "SIGHUP" else f"stopped by {sig.name}"
    task.cancel(why)  # the runner records it as the reason the run ended early


# The stopping signal each command got, if any (its exit code is then 128 + its number).
RECEIVED: list[signal.Signals] = []


def stop_like_ctrl_c() -> None:
    """Every command: SIGTERM and SIGHUP do what Ctrl-C does (walk 15: `kill PID` ended a
    command at once, skipping what Ctrl-C does: cancel the running work, store what was
    measured, revert the flow's tuning). The handler hands the signal to whatever handles
    Ctrl-C at that moment: asyncio.run's (it cancels the main task, whose clean-up runs, then
    raises KeyboardInterrupt) or Python's own (KeyboardInterrupt at once). A command that
    installs its own handlers (run_stoppable above) replaces these while it runs."""
    for sig in STOPPING:
        with contextlib.suppress(ValueError, OSError):  # not the main thread: left as it is
            signal.signal(sig, _like_ctrl_c)


def _like_ctrl_c(signum: int, frame: FrameType | None) -> None:
    sig = signal.Signals(signum)
    if RECEIVED:  # a second signal while stopping: the first one is being handled
        return
    RECEIVED.append(sig)
    if sig == getattr(signal, "SIGHUP", None):
        _away_from_the_closed_terminal()
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):  # asyncio's cancels the main task; Python's raises at once
        handler(signal.SIGINT, frame)
        return
    raise KeyboardInterrupt  # Ctrl-C ignored (SIG_IGN) or left to the OS: stop here anyway


def _away_from_the_closed_terminal() -> None:
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None and os.isatty(stream.fileno()):
                    os.dup2(null, stream.fileno())
                    stream.flush()
        os.close(null)
