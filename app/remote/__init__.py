"""SSH to the Pi: sessions, batched reads, sudo, host keys and user-facing errors.

The names below are loaded on first use (PEP 562 `__getattr__`): importing a light submodule
(`sbctune.remote.target`, `.quoting`, `.errors`) does not load asyncssh and its crypto, which
the offline commands (`sbctune inspect BUNDLE`, `--help`, `history`) never need (issue 22).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.lazy import exports, names_in

if TYPE_CHECKING:
    from sbctune.remote.batch import Step, StepResult, command, read_file
    from sbctune.remote.errors import (
        AuthFailed,
        CommandFailed,
        ConnectionRefused,
        ConnectTimeout,
        Disconnected,
        HostKeyChanged,
        HostKeyRevoked,
        HostKeyUnknown,
        HostUnreachable,
        NameNotResolved,
        RemoteError,
        RemoteTimeout,
        SudoFailed,
    )
    from sbctune.remote.hostkeys import HostKeyInfo, KnownHosts
    from sbctune.remote.session import CommandResult, RemoteProcess, Session
    from sbctune.remote.target import Secret, Target, parse_target, split_target

__all__ = [
    "AuthFailed",
    "CommandFailed",
    "CommandResult",
    "ConnectTimeout",
    "ConnectionRefused",
    "Disconnected",
    "HostKeyChanged",
    "HostKeyInfo",
    "HostKeyRevoked",
    "HostKeyUnknown",
    "HostUnreachable",
    "KnownHosts",
    "NameNotResolved",
    "RemoteError",
    "RemoteProcess",
    "RemoteTimeout",
    "Secret",
    "Session",
    "Step",
    "StepResult",
    "SudoFailed",
    "Target",
    "command",
    "parse_target",
    "read_file",
    "split_target",
]

if not TYPE_CHECKING:  # mypy sees the imports above, and a typo stays an error
    __getattr__, __dir__ = exports(
        __name__,
        names_in("batch", ("Step", "StepResult", "command", "read_file"))
        | names_in(
            "errors",
            (
                "AuthFailed",
                "CommandFailed",
                "ConnectionRefused",
                "ConnectTimeout",
                "Disconnected",
                "HostKeyChanged",
                "HostKeyRevoked",
                "HostKeyUnknown",
                "HostUnreachable",
                "NameNotResolved",
                "RemoteError",
                "RemoteTimeout",
                "SudoFailed",
            ),
        )
        | names_in("hostkeys", ("HostKeyInfo", "KnownHosts"))
        | names_in("session", ("CommandResult", "RemoteProcess", "Session"))
        | names_in("target", ("Secret", "Target", "parse_target", "split_target")),
    )
