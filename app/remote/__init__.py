"""SSH to the Pi: sessions, batched reads, sudo, host keys and user-facing errors."""

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
from sbctune.remote.target import Secret, Target, parse_target

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
]
