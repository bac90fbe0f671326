"""SIGTERM and SIGHUP stop a command the way Ctrl-C does: its task is cancelled, so what was
measured is stored (marked incomplete) before the process ends.

Without this, SIGTERM (`kill`, a service manager, a logout) or SIGHUP (the terminal closed)
ended the process at once and a half-done run was lost, although Ctrl-C kept it. The exit
code is the shell's for a signal, 128 + its number. After SIGHUP the terminal is gone: what
is still printed goes to /dev/null, so a write to the dead terminal cannot stop the saving.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Coroutine
from typing import Any

STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def run_stoppable(main: Coroutine[Any, Any, int]) -> int:
    """`asyncio.run(main)`, with SIGTERM and SIGHUP cancelling it like Ctrl-C."""
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


def _away_from_the_closed_terminal() -> None:
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None and os.isatty(stream.fileno()):
                    os.dup2(null, stream.fileno())
                    stream.flush()
        os.close(null)
