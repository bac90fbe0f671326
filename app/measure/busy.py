"""One measurement of a Pi at a time: refuse a second run from this app, or while another
iperf3 client runs on the Pi (both would share the link and measure wrong figures)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sbctune.errors import UserError

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

# iperf3 clients on the Pi in the same network namespace as the login shell: pid, then args.
# Reading other users' /proc/PID/ns/net is not allowed; those are not ours to worry about.
_RUNNING_CLIENTS = (
    "me=$(readlink /proc/self/ns/net); for c in $(grep -lx iperf3 /proc/[0-9]*/comm "
    '2>/dev/null); do p=${c%/comm}; [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$me" ] || '
    "continue; printf '%s ' \"${p#/proc/}\"; tr '\\0' ' ' <\"$p/cmdline\" 2>/dev/null; echo; done"
)

# Hosts this process is measuring right now (a second run at once would share the link).
_active: set[str] = set()


def host_key(session: Session) -> str:
    return f"{session.remote_address}:{session.target.port}"


@contextlib.contextmanager
def measuring(session: Session) -> Iterator[None]:
    """Mark the Pi as being measured from this process (refuse_if_busy checks it)."""
    key = host_key(session)
    _active.add(key)
    try:
        yield
    finally:
        _active.discard(key)


class TestAlreadyRunning(UserError):
    """Another iperf3 test runs on the Pi (or from this app) right now."""

    __test__ = False  # not a pytest test class


async def refuse_if_busy(session: Session) -> None:
    if host_key(session) in _active:
        raise TestAlreadyRunning(
            f"A measurement of {session.target.display} is already running from this computer.",
            "Wait for it to finish (or cancel it), then start the next one.",
        )
    result = await session.run(["sh", "-c", _RUNNING_CLIENTS], timeout=20)
    for line in result.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        words = args.split()
        if (pid.isascii() and pid.isdigit()) and ("-c" in words or "--client" in words):
            raise TestAlreadyRunning(
                f"Another iperf3 test is running on the Pi (pid {pid}: {args.strip()[:120]}). "
                "Two tests at once share the link, and both would measure wrong figures.",
                f"Wait for it to finish, or stop it (`kill {pid}` on the Pi), then try again.",
            )
