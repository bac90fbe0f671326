"""Whether the Pi still answers a NEW SSH connection after the tweaks (a tweak that broke the
network leaves the open connection alive for a while, so that one proves nothing)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.remote import RemoteError

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

Reconnect = Callable[[], Awaitable["Session"]]


async def connect_pinned(session: Session) -> Session:
    """A new connection that trusts exactly the host key the current one was made with."""
    from sbctune.remote import KnownHosts, Session  # loaded already: `session` is one

    key = session.server_host_key()
    with tempfile.TemporaryDirectory(prefix="sbctune-reach-") as folder:
        known = KnownHosts(read_from=[], write_to=Path(folder) / "known_hosts")
        if key is not None:
            known.add(session.target.host, session.target.port, key)
        return await Session.connect(session.target, known_hosts=known)


async def reachable(session: Session, reconnect: Reconnect | None) -> bool:
    try:
        fresh = await (reconnect() if reconnect else connect_pinned(session))
    except (RemoteError, OSError):
        return False
    try:
        result = await fresh.run(["true"], timeout=15)
        return result.ok
    except (RemoteError, OSError):
        return False
    finally:
        with contextlib.suppress(OSError, RemoteError):
            await fresh.close()
