"""A cancellation (Ctrl-C) that arrives in the same loop turn as the awaited result is kept."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from sbctune import aio


async def _cancel_as_result_arrives(wait_for: Callable[[Awaitable[Any], float], Awaitable[Any]]
                                    ) -> asyncio.Task[Any]:  # fmt: skip
    loop = asyncio.get_running_loop()
    line: asyncio.Future[str] = loop.create_future()  # a live line from the Pi, say
    task = asyncio.create_task(wait_for(line, 10))
    await asyncio.sleep(0)  # the task waits for the line
    line.set_result("[  5]   1.00-2.00 sec ...")
    task.cancel()  # Ctrl-C in the same turn
    await asyncio.gather(task, return_exceptions=True)
    return task


async def test_a_cancellation_with_the_result_is_not_dropped() -> None:
    task = await _cancel_as_result_arrives(aio.wait_for)
    assert task.cancelled()


async def test_the_time_limit_still_applies() -> None:
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    with pytest.raises(asyncio.TimeoutError):
        await aio.wait_for(never, 0.05)
    assert await aio.wait_for(asyncio.sleep(0, "done"), 1) == "done"
