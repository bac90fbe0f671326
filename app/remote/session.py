"""One SSH session to the Pi (asyncssh): connect, run, batch, stream, sudo, cancel.

Commands are always argument lists, quoted here; remote text is never pasted into a shell.
Every remote process is started through a tiny wrapper that reports its PID first, so a
timeout or a cancel can kill it on the Pi instead of leaving it running (the running command:
`sbctune.remote.process`; opening the connection and its failures: `sbctune.remote.opening`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Literal

import asyncssh

from sbctune import aio
from sbctune.limits import MAX_BATCH_BYTES, MAX_OUTPUT_BYTES
from sbctune.remote import batch
from sbctune.remote.errors import (
    CommandFailed,
    Disconnected,
    HostKeyChanged,
    HostKeyUnknown,
    RemoteError,
    RemoteTimeout,
    ScriptTimeout,
    SudoFailed,
)
from sbctune.remote.hostkeys import HostKeyInfo, KnownHosts, describe_key
from sbctune.remote.opening import UnknownKey, open_connection
from sbctune.remote.process import PID_PREFIX, CommandResult, RemoteProcess
from sbctune.remote.quoting import join
from sbctune.remote.target import Target

__all__ = [
    "SBIN_PATH",
    "SUDO_PROBE",
    "CommandResult",
    "HeldShell",
    "HostKeyPrompt",
    "RemoteProcess",
    "Session",
    "SudoMode",
]

HostKeyPrompt = Callable[[HostKeyInfo], Awaitable[bool]]
SudoMode = Literal["root", "passwordless", "password"]

# Appended to the remote PATH for every command (see `Session.start`).
SBIN_PATH = "/usr/local/sbin:/usr/sbin:/sbin"
# Every command and sudo itself run in this locale: the kernel's refusals reach us through the
# C library's strerror() and sudo's own words, both translated in the Pi's locale ("Vorgang
# wird nicht unterstützt" on a German Pi), and the planner reads the English words; C.UTF-8
# has no translations and keeps UTF-8 text as it is (a program that lacks it falls back to C).
REMOTE_LOCALE = "C.UTF-8"
SUDO_PROBE = "id -u; sudo -n true >/dev/null 2>&1 && echo passwordless"
_SUDO_BAD_PASSWORD = re.compile(r"incorrect password|Sorry, try again|no password was provided")
_SUDO_NOT_ALLOWED = re.compile(r"not in the sudoers|not allowed to execute|may not run sudo")
_SUDO_NEEDS_PASSWORD = re.compile(r"a password is required|a terminal is required")


@dataclass
class HeldShell:
    """`sh -s` waiting on the Pi for a batch (`Session.hold_shell`). `process` is None once
    a batch took it, or when it could not be held: the batch then starts a new one."""

    process: RemoteProcess | None
    sudo: bool

    async def cancel(self) -> None:
        """Let it go unused (stops it on the Pi)."""
        process, self.process = self.process, None
        if process is not None:
            await process.cancel()


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
            return cls(target, await open_connection(target, known))
        except UnknownKey as unknown:
            info = describe_key(target.host, target.port, unknown.key)
            accepted = accept_new_host_key or (
                on_unknown_host_key is not None and await on_unknown_host_key(info)
            )
            if not accepted:
                raise HostKeyUnknown(target.host, info.key_type, info.fingerprint) from None
            known.add(target.host, target.port, unknown.key)
        # Reconnect: the key must now match exactly what the user accepted.
        try:
            return cls(target, await open_connection(target, known))
        except UnknownKey as again:
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
        elif words[:1] and (words[0].isascii() and words[0].isdigit()):
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
        process = await self._spawn(argv, sudo=sudo, stdin=stdin, hold=False)
        await process._read_pid()
        return process

    async def _spawn(
        self, argv: Sequence[str], *, sudo: bool, stdin: bytes | None, hold: bool
    ) -> RemoteProcess:
        # A non-root login's PATH on Debian/Raspberry Pi OS lacks the sbin folders, where
        # ethtool, ip, sysctl live; sudo's secure_path has them, a plain login does not.
        path = f'PATH="$PATH:{SBIN_PATH}"; export PATH'
        # exported inside too: sudo's env_reset may drop what `env` set for sudo itself
        locale = f"LC_ALL={REMOTE_LOCALE}; export LC_ALL"
        wrapper = f"echo {PID_PREFIX.decode()}$$; {path}; {locale}; exec " + join(argv)
        prefix, password = await self._sudo_prefix() if sudo else ([], b"")
        # `env`, not `VAR=x cmd`: the login shell may be one without that form (csh)
        line = join(["env", f"LC_ALL={REMOTE_LOCALE}", *prefix, "sh", "-c", wrapper])
        self.round_trips += 1
        try:
            proc = await self._conn.create_process(line, encoding=None)
        except (asyncssh.Error, OSError) as exc:
            raise Disconnected(self.target.host, str(exc)) from exc
        if password:
            proc.stdin.write(password)
        if stdin:
            proc.stdin.write(stdin)
        if not hold:
            proc.stdin.write_eof()
        return RemoteProcess(self, proc, argv, bool(prefix))

    async def hold_shell(self, *, sudo: bool = False) -> HeldShell:
        """Start `sh -s` (under sudo when asked) for a batch whose steps are not known yet
        (`run_script(..., held=)`): sshd's session, sudo's password check and the shell's
        start happen now, beside other reads, instead of after them. Raises as `start` does
        (SudoFailed when sudo refuses); a shell that could not be held (sudo printed
        something before it ran) leaves the batch to a new command."""
        process = await self._spawn(["sh", "-s"], sudo=sudo, stdin=None, hold=True)
        try:
            held = await process._read_pid_held()
        except asyncio.CancelledError:
            await asyncio.shield(process.cancel())
            raise
        return HeldShell(process if held else None, sudo)

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
        return await self._finish(process, timeout, limit)

    async def _finish(
        self, process: RemoteProcess, timeout: float | None, limit: int
    ) -> tuple[bytes, bytes, int]:
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
        what: str = "",
        held: HeldShell | None = None,
    ) -> list[batch.StepResult]:
        """Run many commands in one round trip; one result per step, in order. `parallel`:
        the steps run at once on the Pi (only for steps that do not depend on one another).
        `what`: what the batch does, in plain words, for the message if it runs out of time
        (`script_time.script_seconds` gives a limit by what the steps do). `held`: a shell
        from `hold_shell` to run them in (its sudo, not `sudo`); it serves one batch."""
        if not steps:
            return []
        nonce = batch.new_nonce()
        script = batch.build_script(steps, nonce, parallel=parallel).encode()
        try:
            if held is not None and held.process is not None:
                process, held.process = held.process, None
                process.feed(script)
                out, err, code = await self._finish(process, timeout, MAX_BATCH_BYTES)
            else:
                out, err, code = await self.run_bytes(
                    ["sh", "-s"],
                    sudo=held.sudo if held is not None else sudo,
                    timeout=timeout,
                    stdin=script,
                    limit=MAX_BATCH_BYTES,
                )
        except RemoteTimeout:
            raise ScriptTimeout(what, len(steps), timeout or 0) from None
        try:
            return batch.split_output(steps, nonce, out, parallel=parallel)
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
