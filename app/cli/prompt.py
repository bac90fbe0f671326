"""A line typed on the terminal, awaited without blocking the event loop or the exit.

`asyncio.to_thread(input)` runs in the loop's default executor, which `asyncio.run` joins on
the way out: after Ctrl-C (or a time-out) the command would hang until the user pressed
Enter. A daemon thread of our own is left behind instead.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio


async def read_line(prompt: str = "") -> str:
    """The next line of standard input ("" at its end), after printing `prompt`."""
    if prompt:
        print(prompt, end="", flush=True)
    import asyncio  # here: the module is imported by offline commands too (asyncio ~50 ms)

    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(line: str) -> None:
        if not answer.done():
            answer.set_result(line)

    def read() -> None:
        try:
            line = sys.stdin.readline()
        except (OSError, ValueError):
            line = ""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(settle, line)

    threading.Thread(target=read, name="sbctune-prompt", daemon=True).start()
    return await answer
