"""From an error to what the user is told: what happened, what to do, and how grave it is.

One mapping for both front ends; they differ only in how a declined iperf3 install is
answered (the CLI names its `--install-iperf3` flag, the GUI offers to ask again).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import Literal

from sbctune.errors import UserError
from sbctune.measure.install import InstallPlan, Iperf3NotInstalled
from sbctune.remote import HostKeyChanged
from sbctune.remote.errors import (
    AuthFailed,
    ConnectionRefused,
    ConnectTimeout,
    HandshakeLost,
    HostKeyUnknown,
    HostUnreachable,
    KeyFileUnusable,
    NameNotResolved,
)
from sbctune.wording import spoken

Frontend = Literal["gui", "cli"]
# Which of the app's login fields the user fixes next: "host" (address or port), "login"
# (password or key file), or "" (none: the app leaves the focus where it is).
Field = Literal["", "host", "login"]
_HOST_ERRORS = (HostUnreachable, NameNotResolved, ConnectionRefused, ConnectTimeout, HandshakeLost)


@dataclass(frozen=True)
class Problem:
    """An error as shown: what happened, what to do, and how grave it is."""

    message: str
    hint: str
    hard_stop: bool = False  # a changed host key: never offer to "try anyway"
    expected: bool = True  # False: a bug in sbctune, not something the user did
    field: Field = ""  # the field to fix (the desktop app puts the focus there)


def problem_from(exc: BaseException, frontend: Frontend = "gui") -> Problem:
    """What the user is told, in plain words (a command in quotation marks, not backticks)."""
    problem = _problem_from(exc, frontend)
    field: Field = (
        "login"
        if isinstance(exc, (AuthFailed, KeyFileUnusable))
        else "host"
        if isinstance(exc, _HOST_ERRORS)
        else ""
    )
    return replace(problem, message=spoken(problem.message), hint=spoken(problem.hint), field=field)


def _problem_from(exc: BaseException, frontend: Frontend) -> Problem:
    if isinstance(exc, HostKeyChanged):
        return Problem(exc.message, exc.hint, hard_stop=True)
    if isinstance(exc, AuthFailed) and exc.no_password and frontend == "gui":
        return Problem(exc.message, exc.app_hint)  # not the CLI's --password-stdin
    if isinstance(exc, ConnectionRefused) and frontend == "gui":
        return Problem(exc.message, exc.app_hint)  # the Port field, not the CLI's host:port
    if isinstance(exc, HostKeyUnknown) and frontend == "gui":
        return Problem(exc.message, exc.app_hint)  # the question's button, not a CLI option
    if isinstance(exc, Iperf3NotInstalled) and frontend == "gui":
        return Problem(exc.message, declined_hint(exc.plan))
    if isinstance(exc, UserError):
        return Problem(exc.message, exc.hint)
    if isinstance(exc, asyncio.TimeoutError):
        return Problem("The operation timed out.", "Check the network and try again.")
    return Problem(
        f"Unexpected error: {exc!r}", "Please report this, with what you did.", expected=False
    )


def declined_hint(plan: InstallPlan) -> str:
    """What the GUI says after a "no" (the core's hint names the CLI's --install-iperf3)."""
    if plan.manager is None:
        return "Install iperf3 on the Pi by hand (version 3.9 or later), then start again."
    return (
        f"Install it on the Pi with “{plan.command}”, then start again; or start again and "
        "let sbctune install it."
    )
