"""Long work runs as asyncio tasks on Qt's event loop (qasync), never blocking the window.

asyncio keeps only weak references to tasks, and qasync's asyncSlot does not keep one either:
a task nobody holds can be garbage-collected mid-flight. Every task the GUI starts goes through
a `TaskRunner`, which holds it until it ends and reports failures to one place.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

# asyncio is imported when a task starts: the app's first window (the Connect page, which holds
# a runner) is painted before it and qasync are imported (issue 22).
if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")
log = logging.getLogger(__name__)

ErrorHandler = Callable[[BaseException], None]


class TaskRunner:
    """Starts tasks, keeps them alive, cancels them all on shutdown."""

    def __init__(self, on_error: ErrorHandler | None = None) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._on_error = on_error

    def start(
        self,
        coro: Coroutine[Any, Any, T],
        *,
        name: str,
        on_error: ErrorHandler | None = None,
    ) -> asyncio.Task[T]:
        import asyncio

        task = asyncio.get_event_loop().create_task(coro, name=name)
        self._tasks.add(task)

        def done(finished: asyncio.Task[T]) -> None:
            self._tasks.discard(finished)
            if finished.cancelled():
                return
            exc = finished.exception()
            if exc is not None:
                handler = on_error or self._on_error
                if handler is not None:
                    handler(exc)
                else:
                    log.error("task %s failed", name, exc_info=exc)

        task.add_done_callback(done)
        return task

    @property
    def running(self) -> list[asyncio.Task[Any]]:
        return [t for t in self._tasks if not t.done()]

    async def shutdown(self, timeout: float = 15.0) -> None:
        """Cancel every task and wait (bounded) for them to clean up on the Pi and here."""
        import asyncio

        from sbctune import aio

        tasks = self.running
        for task in tasks:
            task.cancel()
        if tasks:
            with contextlib.suppress(asyncio.TimeoutError):
                await aio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=timeout)
