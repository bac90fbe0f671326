"""Run `sbctune` (the real CLI) and SIGKILL it at a chosen step of `tune apply`.

Usage: python -m tests.integration.tune_kill_at N before|during|after SBCTUNE-ARGS...

With SBCTUNE_TEST_SIGNAL=INT the process gets SIGINT (what Ctrl-C sends) instead: a test
that sent it from outside on seeing a line raced the CLI on a busy machine (the line was
read from the pipe after apply had already finished).

Counts the commands apply runs on the Pi as root (1 create + lock, 2 arm the guard, 3 apply
the changes, 4 write the final revert.sh) and kills this process before the Nth is sent,
DURING_DELAY seconds after it was sent (while the Pi runs it), or right after it returned.
SSH, sudo and the Pi are real: this only chooses the moment the app dies.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from sbctune.remote.session import Session
from sbctune.tuning import applying

DURING_DELAY = 0.15


SIGNAL = signal.SIGINT if os.environ.get("SBCTUNE_TEST_SIGNAL") == "INT" else signal.SIGKILL


def _die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), SIGNAL)


def install(target: int, mode: str) -> None:
    counting = False
    count = 0
    original_run_bytes = Session.run_bytes
    original_refuse = applying._refuse_if_busy

    async def refuse(session: Session) -> None:
        nonlocal counting
        counting = True  # from here on, apply is running
        await original_refuse(session)

    async def run_bytes(self: Session, argv: Any, **kwargs: Any) -> Any:
        nonlocal count
        if not (counting and kwargs.get("sudo")):
            return await original_run_bytes(self, argv, **kwargs)
        count += 1
        if count != target:
            return await original_run_bytes(self, argv, **kwargs)
        if mode == "before":
            _die()
        if mode == "during":
            asyncio.get_running_loop().call_later(DURING_DELAY, _die)
        result = await original_run_bytes(self, argv, **kwargs)
        if mode == "after":
            _die()
        return result

    applying._refuse_if_busy = refuse  # type: ignore[assignment]
    Session.run_bytes = run_bytes  # type: ignore[method-assign]


if __name__ == "__main__":
    install(int(sys.argv[1]), sys.argv[2])
    from sbctune.cli.main import main

    sys.exit(main(sys.argv[3:]))
