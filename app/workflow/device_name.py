"""One rule for a device's name, in the window and on the command line: the host name read from
the Pi (what the status bar shows), else its board model (the s13 walk: `demo` named a Pi 5 by
its board and left a Pi 1 B nameless, "–" on the Devices page, where the window used the
host name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.remote import RemoteError
from sbctune.textsafe import visible

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

NAME_CHARS = 60


def device_name(hostname: str | None, model: str | None) -> str | None:
    """The Pi's host name (untrusted: made visible, one line, bounded), else its board model."""
    for text in (hostname, model):
        name = " ".join(visible(text or "").split())[:NAME_CHARS]
        if name:
            return name
    return None


async def read_device_name(session: Session, model: str | None) -> str | None:
    """The name by the rule above, the host name read from the Pi now."""
    hostname = None
    try:
        result = await session.run(["hostname"], timeout=15)
        hostname = result.stdout if result.ok else None
    except (RemoteError, OSError, TimeoutError):
        hostname = None  # the board model names it then
    return device_name(hostname, model)
