"""A test session cancelled mid-setup leaves no task behind (a read would outlive it)."""

from __future__ import annotations

import asyncio
import socket

from sbctune.measure.endpoint.protocol import COOKIE_SIZE
from sbctune.measure.endpoint.session import TestSession


async def test_cancelled_session_leaves_no_pending_read() -> None:
    server_side, client_side = socket.socketpair()
    server_side.setblocking(False)
    client_side.setblocking(False)
    session = TestSession(1, server_side, ("127.0.0.1", 1), b"c" * COOKIE_SIZE)
    before = asyncio.all_tasks()
    run = asyncio.ensure_future(session.run())
    # The session asks for the parameters; this "client" never sends them.
    await asyncio.get_running_loop().sock_recv(client_side, 1)
    await asyncio.sleep(0.05)
    run.cancel()
    await asyncio.wait([run])
    await asyncio.sleep(0.05)
    left = [t for t in asyncio.all_tasks() - before if not t.done()]
    client_side.close()
    assert left == [], f"tasks still pending after the session was cancelled: {left}"
