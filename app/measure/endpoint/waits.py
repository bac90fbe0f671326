"""Waiting on the client with a deadline and a stop signal: what a test session does at
every step (``session.TestSession``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

T = TypeVar("T")


class Terminated(Exception):
    """The endpoint is stopping (or the watchdog fired) while a test waits on its client."""


async def until(
    aw: Awaitable[T], timeout: float | None, stop: asyncio.Event, *, cancel: bool = True
) -> T:
    """Await ``aw``; raise ``Terminated`` when ``stop`` is set, TimeoutError on timeout."""
    task = asyncio.ensure_future(aw)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        done, _ = await asyncio.wait(
            {task, stopper}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
    except BaseException:  # cancelled: a read left pending would outlive the session
        if cancel:
            task.cancel()
        raise
    finally:
        stopper.cancel()
    if task in done:
        return task.result()
    if cancel:
        task.cancel()
    if stop.is_set():
        raise Terminated
    raise asyncio.TimeoutError


async def until_either(
    first: asyncio.Future[Any], second: asyncio.Future[int], timeout: float, stop: asyncio.Event
) -> None:
    """Wait for either future (``second``'s error is raised), ``stop`` or the timeout."""
    stopper = asyncio.ensure_future(stop.wait())
    waiting: set[asyncio.Future[Any]] = {first, second, stopper}
    try:
        done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
    if second in done:
        second.result()  # raises ControlClosed when the client went away
    if first in done or second in done:
        return
    if stop.is_set():
        raise Terminated
    raise asyncio.TimeoutError


def set_done(fut: asyncio.Future[None]) -> None:
    """Complete ``fut`` unless it already is (called from the data thread's callback)."""
    if not fut.done():
        fut.set_result(None)
