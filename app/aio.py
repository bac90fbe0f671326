"""asyncio helpers the standard library gets wrong on the Pythons we support.

`wait_for`: on Python 3.10 and 3.11, ``asyncio.wait_for`` returns the inner result and drops a
cancellation that arrives in the same loop turn as that result (CPython gh-86296, fixed in
3.12). The CLI reads a live iperf3 line that way several times a second, so on a busy machine
Ctrl-C was now and then lost and the measurement ran on. 3.11's ``asyncio.timeout`` keeps the
cancellation; 3.10 has nothing better than ``wait_for``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def wait_for(aw: Awaitable[T], timeout: float | None) -> T:
    """``await aw`` with a time limit (asyncio.TimeoutError past it); a cancellation of the
    caller is never dropped, even when ``aw`` finishes in the same turn."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(timeout):
            return await aw
    return await asyncio.wait_for(aw, timeout)  # pragma: no cover - Python 3.10
