"""One SSH session to the Pi (asyncssh): connect, run, batch, stream, sudo, cancel.

Commands are always argument lists, quoted here; remote text is never pasted into a shell.
Every remote process is started through a tiny wrapper that reports its PID first, so a
timeout or a cancel can kill it on the Pi instead of leaving it running.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Literal

import asyncssh

from sbctune import aio
from sbctune.limits import MAX_BATCH_BYTES, MAX_OUTPUT_BYTES
from sbctune.remote import batch
from sbctune.remote.agents import agent_path
from sbctune.remote.errors import (
    AuthFailed,
    CommandFailed,
    ConnectionRefused,
    ConnectTimeout,
    Disconnected,
    HandshakeLost,
    HostKeyChanged,
    HostKeyRevoked,
    HostKeyUnknown,
    HostUnreachable,
    KeyFileUnusable,
    NameNotResolved,
    OutputTooLarge,
    RemoteError,
    RemoteTimeout,
    SudoFailed,
)
from sbctune.remote.hostkeys import HostKeyInfo, KeyMatcher, KeyRecorder, KnownHosts, describe_key
from sbctune.remote.quoting import join
from sbctune.remote.reading import LineReader, read_at_most
from sbctune.remote.target import KEEPALIVE_COUNT, Target

HostKeyPrompt = Callable[[HostKeyInfo], Awaitable[bool]]
SudoMode = Literal["root", "passwordless", "password"]

_PID_PREFIX = b"sbctune-pid:"
_READ_CHUNK = 1024 * 1024
# Appended to the remote PATH for every command (see `Session.start`).
SBIN_PATH = "/usr/local/sbin:/usr/sbin:/sbin"
SUDO_PROBE = "id -u; sudo -n true >/dev/null 2>&1 && echo passwordless"
_SUDO_BAD_PASSWORD = re.compile(r"incorrect password|Sorry, try again|no password was provided")
_SUDO_NOT_ALLOWED = re.compile(r"not in the sudoers|not allowed to execute|may not run sudo")
_SUDO_NEEDS_PASSWORD = re.compile(r"a password is required|a terminal is required")


@dataclass(frozen=True)
class CommandResult:
    argv: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


# What asyncssh raises on a read or wait when the connection dies (ConnectionLost and the
# other DisconnectErrors are asyncssh.Error; a reset socket, ConnectionError).
_CONNECTION_ERRORS = (asyncssh.Error, ConnectionError)


class RemoteProcess:
    """A command running on the Pi; read it, wait for it, or cancel it (kills it remotely)."""

    def __init__(
        self,
        session: Session,
        proc: asyncssh.SSHClientProcess[bytes],
        argv: Sequence[str],
        sudo: bool,
    ) -> None:
        self._session = session
        self._proc = proc
        self._stdout = LineReader(proc.stdout)
        self.argv = tuple(argv)
        self._sudo = sudo
        self.pid: int | None = None
        self._finished = False

    @property
    def command_line(self) -> str:
        return join(self.argv)

    def _lost(self, exc: BaseException | None = None) -> Disconnected:
        """The SSH connection died under this command (asyncssh's ConnectionLost, a reset)."""
        detail = str(exc) if exc is not None and str(exc) else "the SSH connection closed"
        return Disconnected(self._session.target.host, detail)

    async def _read_pid(self) -> None:
        try:
            line = await self._stdout.readline()
            if line.startswith(_PID_PREFIX):
                self.pid = int(line[len(_PID_PREFIX) :].strip())
                return
            # The wrapper never ran: sudo refused, or the connection died.
            stderr = (await read_at_most(self._proc.stderr)).decode("utf-8", errors="replace")
            await self._proc.wait()
        except _CONNECTION_ERRORS as exc:
            raise self._lost(exc) from exc
        self._finished = True
        if self._session.closed:
            raise self._lost()
        if self._sudo:
            self._session.raise_for_sudo(stderr)
        raise CommandFailed(self.command_line, self._proc.exit_status, stderr)

    async def lines(self) -> AsyncIterator[str]:
        """Stdout, line by line as the Pi writes it (without the newline)."""
        try:
            while True:
                line = await self._stdout.readline()
                if not line:
                    break
                yield line.decode("utf-8", errors="replace").rstrip("\r\n")
        except asyncio.CancelledError:
            await asyncio.shield(self.cancel())
            raise
        except _CONNECTION_ERRORS as exc:
            raise self._lost(exc) from exc
        if self._session.closed:  # the output ended because the connection did
            raise self._lost()

    async def read_stderr(self) -> str:
        return (await read_at_most(self._proc.stderr)).decode("utf-8", errors="replace")

    async def communicate(self, limit: int = MAX_OUTPUT_BYTES) -> tuple[bytes, bytes, int]:
        """All of stdout and stderr, each at most ``limit`` bytes: a Pi that sends more is
        stopped there (OutputTooLarge), before the PC runs out of memory."""
        try:
            out, err = await asyncio.gather(
                self._read_capped(self._proc.stdout, limit, self._stdout.take_buffered()),
                self._read_capped(self._proc.stderr, MAX_OUTPUT_BYTES),
            )
            await self._proc.wait()
        except _CONNECTION_ERRORS as exc:
            raise self._lost(exc) from exc
        self._finished = True
        status = self._proc.exit_status
        if status is None and self._session.closed:
            raise self._lost()
        return out, err, -1 if status is None else status

    async def _read_capped(
        self, stream: asyncssh.SSHReader[bytes], limit: int, already: bytes = b""
    ) -> bytes:
        chunks: list[bytes] = [already]
        total = len(already)
        while chunk := await stream.read(_READ_CHUNK):
            total += len(chunk)
            if total > limit:
                await self.cancel()
                raise OutputTooLarge(self.command_line, limit)
            chunks.append(chunk)
        return b"".join(chunks)

    async def wait(self) -> int:
        try:
            await self._proc.wait()
        except _CONNECTION_ERRORS as exc:
            raise self._lost(exc) from exc
        self._finished = True
        status = self._proc.exit_status
        return -1 if status is None else status

    async def cancel(self) -> None:
        """Stop the command on the Pi (TERM, then KILL) and close its channel."""
        if self._finished:
            return
        self._finished = True
        with contextlib.suppress(OSError, asyncssh.Error):
            self._proc.send_signal("TERM")
        self._proc.close()
        if self.pid is not None:
            await self._session.kill_remote(self.pid, sudo=self._sudo)


class Session:
    """An open SSH connection to one Pi. Use `await Session.connect(target)`."""

    def __init__(self, target: Target, conn: asyncssh.SSHClientConnection) -> None:
        self.target = target
        self._conn = conn
        self._sudo_mode: SudoMode | None = None
        self.round_trips = 0  # remote processes started (one SSH exec channel each)

    # ------------------------------------------------------------------ connect
    @classmethod
    async def connect(
        cls,
        target: Target,
        *,
        known_hosts: KnownHosts | None = None,
        on_unknown_host_key: HostKeyPrompt | None = None,
        accept_new_host_key: bool = False,
    ) -> Session:
        """Connect, asking `on_unknown_host_key` (or refusing) when the host key is new."""
        known = known_hosts or KnownHosts()
        try:
            return cls(target, await _open(target, known))
        except _UnknownKey as unknown:
            info = describe_key(target.host, target.port, unknown.key)
            accepted = accept_new_host_key or (
                on_unknown_host_key is not None and await on_unknown_host_key(info)
            )
            if not accepted:
                raise HostKeyUnknown(target.host, info.key_type, info.fingerprint) from None
            known.add(target.host, target.port, unknown.key)
        # Reconnect: the key must now match exactly what the user accepted.
        try:
            return cls(target, await _open(target, known))
        except _UnknownKey as again:
            info = describe_key(target.host, target.port, again.key)
            raise HostKeyChanged(
                target.host, info.key_type, info.fingerprint, str(known.write_to)
            ) from None

    @property
    def closed(self) -> bool:
        """The SSH connection is gone (lost, or closed by either side)."""
        return bool(self._conn.is_closed())

    @property
    def local_address(self) -> str:
        """This computer's address as the Pi sees the SSH connection."""
        sockname = self._conn.get_extra_info("sockname")
        return str(sockname[0]) if sockname else ""

    @property
    def remote_address(self) -> str:
        peer = self._conn.get_extra_info("peername")
        return str(peer[0]) if peer else self.target.host

    def server_host_key(self) -> asyncssh.SSHKey | None:
        """The host key this connection was made with (to pin a second connection to it)."""
        return self._conn.get_server_host_key()

    async def close(self) -> None:
        self._conn.close()
        await self._conn.wait_closed()

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ sudo
    async def sudo_mode(self) -> SudoMode:
        """How this session gets root: already root, sudo without a password, or with one."""
        if self._sudo_mode is None:
            result = await self.run(["sh", "-c", SUDO_PROBE])
            self.note_sudo_probe(result.stdout)
        return self._sudo_mode or "password"

    def note_sudo_probe(self, output: str) -> None:
        """Take the answer of SUDO_PROBE run as part of a batch, saving a round trip."""
        words = output.split()
        if words[:1] == ["0"]:
            self._sudo_mode = "root"
        elif "passwordless" in words:
            self._sudo_mode = "passwordless"
        elif words[:1] and words[0].isdigit():
            self._sudo_mode = "password"

    async def _sudo_prefix(self) -> tuple[list[str], bytes]:
        mode = await self.sudo_mode()
        if mode == "root":
            return [], b""
        if mode == "passwordless":
            return ["sudo", "-n", "--"], b""
        secret = self.target.effective_sudo_password()
        if not secret:
            raise SudoFailed(self._user, "the Pi asks for a password and none was given")
        # -k: always ask, so the password line is never left over as the command's input.
        return ["sudo", "-k", "-S", "-p", "", "--"], secret.reveal().encode() + b"\n"

    def raise_for_sudo(self, stderr: str) -> None:
        if _SUDO_BAD_PASSWORD.search(stderr):
            raise SudoFailed(self._user, "the password was not accepted")
        if _SUDO_NOT_ALLOWED.search(stderr):
            raise SudoFailed(self._user, "this user is not allowed to use sudo")
        if _SUDO_NEEDS_PASSWORD.search(stderr):
            raise SudoFailed(self._user, "the Pi asks for a password and none was given")
        raise SudoFailed(self._user, stderr.strip() or "sudo did not start the command")

    @property
    def username(self) -> str:
        """Who we are logged in as on the Pi."""
        return str(self.target.user or self._conn.get_extra_info("username") or "?")

    @property
    def _user(self) -> str:
        return self.username

    # ------------------------------------------------------------------ run
    async def start(
        self, argv: Sequence[str], *, sudo: bool = False, stdin: bytes | None = None
    ) -> RemoteProcess:
        """Start a command; its PID is known when this returns."""
        # A non-root login's PATH on Debian/Raspberry Pi OS lacks the sbin folders, where
        # ethtool, ip, sysctl live; sudo's secure_path has them, a plain login does not.
        wrapper = f'echo sbctune-pid:$$; PATH="$PATH:{SBIN_PATH}"; export PATH; exec ' + join(argv)
        prefix, password = await self._sudo_prefix() if sudo else ([], b"")
        line = join([*prefix, "sh", "-c", wrapper])
        self.round_trips += 1
        try:
            proc = await self._conn.create_process(line, encoding=None)
        except (asyncssh.Error, OSError) as exc:
            raise Disconnected(self.target.host, str(exc)) from exc
        if password:
            proc.stdin.write(password)
        if stdin:
            proc.stdin.write(stdin)
        proc.stdin.write_eof()
        process = RemoteProcess(self, proc, argv, bool(prefix))
        await process._read_pid()
        return process

    async def run_bytes(
        self,
        argv: Sequence[str],
        *,
        sudo: bool = False,
        timeout: float | None = None,
        stdin: bytes | None = None,
        limit: int = MAX_OUTPUT_BYTES,
    ) -> tuple[bytes, bytes, int]:
        process = await self.start(argv, sudo=sudo, stdin=stdin)
        try:
            return await aio.wait_for(process.communicate(limit), timeout)
        except asyncio.TimeoutError:
            await process.cancel()
            raise RemoteTimeout(process.command_line, timeout or 0) from None
        except asyncio.CancelledError:
            await asyncio.shield(process.cancel())
            raise

    async def run(
        self,
        argv: Sequence[str],
        *,
        sudo: bool = False,
        timeout: float | None = 60.0,
        check: bool = False,
        stdin: str | None = None,
    ) -> CommandResult:
        """Run one command; with `check`, a non-zero exit raises CommandFailed."""
        out, err, code = await self.run_bytes(
            argv, sudo=sudo, timeout=timeout, stdin=stdin.encode() if stdin is not None else None
        )
        result = CommandResult(
            tuple(argv),
            code,
            out.decode("utf-8", errors="replace"),
            err.decode("utf-8", errors="replace"),
        )
        if check and not result.ok:
            raise CommandFailed(join(argv), code, result.stderr)
        return result

    async def run_script(
        self,
        steps: Sequence[batch.Step],
        *,
        sudo: bool = False,
        timeout: float | None = 120.0,
        parallel: bool = False,
    ) -> list[batch.StepResult]:
        """Run many commands in one round trip; one result per step, in order. `parallel`:
        the steps run at once on the Pi (only for steps that do not depend on one another)."""
        if not steps:
            return []
        nonce = batch.new_nonce()
        script = batch.build_script(steps, nonce, parallel=parallel).encode()
        out, err, code = await self.run_bytes(
            ["sh", "-s"], sudo=sudo, timeout=timeout, stdin=script, limit=MAX_BATCH_BYTES
        )
        try:
            return batch.split_output(steps, nonce, out)
        except batch.BatchFramingError as exc:
            raise CommandFailed(
                f"batch of {len(steps)} commands", code, err.decode(errors="replace") or str(exc)
            ) from exc

    async def kill_remote(self, pid: int, *, sudo: bool) -> None:
        """TERM the process and its children, then KILL whatever is left after 2 s."""
        pid = int(pid)
        script = (
            f"pkill -TERM -P {pid} 2>/dev/null; kill -TERM {pid} 2>/dev/null; i=0; "
            f"while kill -0 {pid} 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done; "
            f"pkill -KILL -P {pid} 2>/dev/null; kill -KILL {pid} 2>/dev/null; true"
        )
        try:
            prefix, password = await self._sudo_prefix() if sudo else ([], b"")
            await aio.wait_for(
                self._conn.run(
                    join([*prefix, "sh", "-c", script]), input=password or None, encoding=None
                ),
                10,
            )
        except (asyncssh.Error, OSError, asyncio.TimeoutError, RemoteError):
            pass  # the connection is gone; sshd closes the channel and the process gets SIGPIPE


class _UnknownKey(Exception):
    def __init__(self, key: asyncssh.SSHKey) -> None:
        self.key = key


async def _open(target: Target, known: KnownHosts) -> asyncssh.SSHClientConnection:
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
        raise _UnknownKey(key) from None
    except asyncssh.PermissionDenied as exc:
        raise AuthFailed(
            target.user or "",
            target.host,
            exc.reason,
            no_password=not target.password and not target.identity_files,
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
