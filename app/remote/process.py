"""A command running on the Pi, started by `Session.start`: read it, wait for it, cancel it.

Every remote process is started through a tiny wrapper that reports its PID first
(`PID_PREFIX`), so a timeout or a cancel can kill it on the Pi instead of leaving it running.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import asyncssh

from sbctune.limits import MAX_OUTPUT_BYTES
from sbctune.remote.errors import CommandFailed, Disconnected, OutputTooLarge
from sbctune.remote.quoting import join
from sbctune.remote.reading import LineReader, read_at_most
from sbctune.remote.target import Target

#: What the wrapper prints before it execs the command: this prefix, then its PID.
PID_PREFIX = b"sbctune-pid:"
_READ_CHUNK = 1024 * 1024


class Owner(Protocol):
    """What a running command needs of the session that started it (`Session`)."""

    @property
    def target(self) -> Target: ...

    @property
    def closed(self) -> bool: ...

    def raise_for_sudo(self, stderr: str) -> None: ...

    async def kill_remote(self, pid: int, *, sudo: bool) -> None: ...


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
        session: Owner,
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
            if line.startswith(PID_PREFIX):
                self.pid = int(line[len(PID_PREFIX) :].strip())
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

    async def _read_pid_held(self) -> bool:
        """The PID line of a command whose stdin is still open (`Session.hold_shell`). True
        when it came first. sudo -S reads its password line and, refused, waits for another
        ("Sorry, try again"): anything on stderr before the PID line closes stdin at once and
        ends the command, so a refusal raises as `_read_pid` does (one password try, as
        before), and a sudo that spoke but ran (a first-use lecture, a host warning) gives
        False: the caller runs its batch as a new command instead."""
        line_read = asyncio.ensure_future(self._stdout.readline())
        said = asyncio.ensure_future(self._proc.stderr.read(MAX_OUTPUT_BYTES))
        try:
            await asyncio.wait({line_read, said}, return_when=asyncio.FIRST_COMPLETED)
            if not said.done() and line_read.result().startswith(PID_PREFIX):
                said.cancel()  # nothing read yet: what stderr says later stays for communicate
                self.pid = int(line_read.result()[len(PID_PREFIX) :].strip())
                return True
            with contextlib.suppress(OSError, asyncssh.Error):  # it may have ended already
                self._proc.stdin.write_eof()
            line = await line_read
            stderr = (await said + await read_at_most(self._proc.stderr)).decode(
                "utf-8", errors="replace"
            )
            await self._proc.wait()
        except _CONNECTION_ERRORS as exc:
            raise self._lost(exc) from exc
        finally:
            for task in (line_read, said):
                task.cancel()
        self._finished = True
        if line.startswith(PID_PREFIX):
            return False
        if self._session.closed:
            raise self._lost()
        if self._sudo:
            self._session.raise_for_sudo(stderr)
        raise CommandFailed(self.command_line, self._proc.exit_status, stderr)

    def feed(self, data: bytes) -> None:
        """Write the rest of stdin and close it (a command started with its stdin held)."""
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.write_eof()
        except _CONNECTION_ERRORS as exc:
            raise self._lost(exc) from exc

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
