"""Opening the SSH connection to the Pi (asyncssh), and what each way it can fail means.

Every failure becomes one of the user-facing errors of `sbctune.remote.errors`; a host key
known_hosts does not know yet raises `UnknownKey`, for `Session.connect` to ask about.
"""

from __future__ import annotations

import asyncio
import errno
import os
import socket

import asyncssh

from sbctune import aio
from sbctune.remote.agents import agent_path
from sbctune.remote.errors import (
    AuthFailed,
    ConnectionRefused,
    ConnectTimeout,
    Disconnected,
    HandshakeLost,
    HostKeyChanged,
    HostKeyRevoked,
    HostUnreachable,
    KeyFileUnusable,
    NameNotResolved,
)
from sbctune.remote.hostkeys import KeyMatcher, KeyRecorder, KnownHosts, describe_key
from sbctune.remote.target import KEEPALIVE_COUNT, Target


class UnknownKey(Exception):
    """The Pi's host key is not in known_hosts yet (nor marked changed or revoked)."""

    def __init__(self, key: asyncssh.SSHKey) -> None:
        self.key = key


async def open_connection(target: Target, known: KnownHosts) -> asyncssh.SSHClientConnection:
    """Log in to the Pi, checking its host key against `known`."""
    matcher = known.matcher()
    recorder = KeyRecorder()
    options: dict[str, object] = {}
    if target.user:  # none given: asyncssh's own default (~/.ssh/config, then the local user)
        options["username"] = target.user
    if target.password:
        options["password"] = target.password.reveal()
    if target.identity_files:
        options["client_keys"] = [str(p) for p in target.identity_files]
    if (agent := agent_path()) is not None:  # Windows: Pageant without pywin32's MFC DLL
        options["agent_path"] = agent
    try:
        conn, _client = await aio.wait_for(
            asyncssh.create_connection(
                lambda: recorder,
                target.host,
                target.port,
                known_hosts=matcher,
                connect_timeout=target.connect_timeout,
                keepalive_interval=target.keepalive_interval,
                keepalive_count_max=KEEPALIVE_COUNT,
                **options,
            ),
            target.connect_timeout + 5,
        )
        return conn
    except asyncssh.HostKeyNotVerifiable:
        key = recorder.rejected_key
        if key is None:  # refused before the prompt: a key known_hosts marks @revoked
            raise _revoked(target, known, matcher) from None
        if matcher.had_keys:
            info = describe_key(target.host, target.port, key)
            where = known.which_file_knows(target.host, matcher.addr, target.port)
            raise HostKeyChanged(
                target.host, info.key_type, info.fingerprint, str(where or known.write_to)
            ) from None
        raise UnknownKey(key) from None
    except asyncssh.PermissionDenied as exc:
        raise AuthFailed(
            target.user or "",
            target.host,
            exc.reason,
            no_password=not target.password and not target.identity_files,
            password=bool(target.password),
        ) from None
    except asyncssh.KeyImportError as exc:
        raise KeyFileUnusable(_key_files(target), str(exc)) from None
    except socket.gaierror:
        raise NameNotResolved(target.host) from None
    except ConnectionRefusedError:
        raise ConnectionRefused(target.host, target.port) from None
    except (asyncio.TimeoutError, TimeoutError):
        raise ConnectTimeout(target.host, target.connect_timeout) from None
    except asyncssh.ConnectionLost:
        raise HandshakeLost(target.host, target.port) from None
    except asyncssh.DisconnectError as exc:
        raise Disconnected(target.host, exc.reason) from None
    except OSError as exc:
        if exc.filename is not None:  # a key file (-i) that cannot be read, not the network
            raise KeyFileUnusable(str(exc.filename), exc.strerror or str(exc)) from None
        if exc.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EHOSTDOWN):
            # asyncio's strerror is "Connect call failed (addr, port)": say what errno means.
            raise HostUnreachable(target.host, os.strerror(exc.errno).lower()) from None
        raise HostUnreachable(target.host, exc.strerror or str(exc)) from None


def _revoked(target: Target, known: KnownHosts, matcher: KeyMatcher) -> HostKeyRevoked:
    where = known.which_file_knows(target.host, matcher.addr, target.port, kind=2)
    keys = matcher.revoked
    if len(keys) == 1:
        info = describe_key(target.host, target.port, keys[0])
        return HostKeyRevoked(target.host, info.key_type, info.fingerprint, str(where))
    return HostKeyRevoked(target.host, "presented", "(one of its revoked keys)", str(where))


def _key_files(target: Target) -> str:
    return ", ".join(str(p) for p in target.identity_files) or "a key in ~/.ssh"
