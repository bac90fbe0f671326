"""The PC side of a test: the built-in iperf3-compatible endpoint, or the system iperf3.

Both serve one test on a free port bound to the address the Pi reaches this PC at, and are
stopped afterwards; the rest of the app sees the same interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import shutil
import socket
import sys
from pathlib import Path
from typing import Literal, Protocol

from sbctune import aio
from sbctune.errors import UserError
from sbctune.measure.endpoint import IperfEndpoint
from sbctune.measure.endpoint.errors import bind_error

EndpointKind = Literal["builtin", "iperf3"]


class PcEndpoint(Protocol):
    kind: EndpointKind
    version: str | None

    @property
    def port(self) -> int: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class BuiltinEndpoint:
    """sbctune's own iperf3 server: no iperf3 needed on this PC."""

    kind: EndpointKind = "builtin"
    version: str | None = "sbctune built-in"

    def __init__(self, bind: str, port: int = 0) -> None:
        self._server = IperfEndpoint(bind, port, one_off=True)

    @property
    def port(self) -> int:
        return self._server.port

    async def start(self) -> None:
        await self._server.start()

    async def stop(self) -> None:
        await self._server.stop()


def _bundled_iperf3() -> Path | None:
    """Where the packaged app keeps its optional iperf3 (packaging/iperf3/<os>/)."""
    system = {"Windows": "windows", "Darwin": "macos"}.get(platform.system(), "linux")
    name = "iperf3.exe" if system == "windows" else "iperf3"
    roots = [Path(__file__).resolve().parents[2] / "packaging" / "iperf3" / system]
    bundle = getattr(sys, "_MEIPASS", None)  # set only in the packaged app
    if bundle:
        roots.insert(0, Path(bundle) / "iperf3")
    for root in roots:
        if (root / name).is_file():
            return root / name
    return None


def find_system_iperf3(configured: str | None = None) -> Path:
    """The iperf3 to use on this PC: configured, bundled, then on PATH."""
    if configured:
        path = Path(configured).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return path
        raise UserError(
            f"The configured iperf3 ({configured}) is not an executable file.",
            "Fix the path in the settings, or use the built-in endpoint.",
        )
    bundled = _bundled_iperf3()
    if bundled is not None:
        return bundled
    found = shutil.which("iperf3")
    if found:
        return Path(found)
    raise UserError(
        "iperf3 is not installed on this computer.",
        "Use the built-in endpoint (the default), or install iperf3 "
        "(Debian/Ubuntu: `sudo apt-get install iperf3`; macOS: `brew install iperf3`).",
    )


def _free_port(bind: str, port: int = 0) -> int:
    """`port` if it is free on `bind` (0: any free port); a clear error when it is taken."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as iperf3 -s binds
        try:
            sock.bind((bind, port))
        except OSError as exc:
            raise bind_error(exc, bind, port) from exc
        return int(sock.getsockname()[1])


class SystemIperf3:
    """`iperf3 -s -1` started for one test, on a free port, and stopped afterwards."""

    kind: EndpointKind = "iperf3"

    def __init__(self, bind: str, binary: Path, port: int = 0) -> None:
        self.bind = bind
        self.binary = binary
        self.port = port
        self.version: str | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._drainer: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.version = await _version_of(self.binary)
        self.port = _free_port(self.bind, self.port)
        self._proc = await asyncio.create_subprocess_exec(
            str(self.binary),
            "-s",
            "-1",
            "-B",
            self.bind,
            "-p",
            str(self.port),
            "--forceflush",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            await self._until_listening(self._proc)
        except BaseException:  # an error, a time-out or a cancel: no iperf3 is left behind
            await self.stop()
            raise
        self._drainer = asyncio.get_running_loop().create_task(self._drain(self._proc))

    async def _until_listening(self, proc: asyncio.subprocess.Process) -> None:
        """Listening once it says so; never probe the port (a probe would be its one test)."""
        assert proc.stdout is not None
        said = b""
        while True:
            try:
                line = await aio.wait_for(proc.stdout.readline(), 10)
            except asyncio.TimeoutError:
                raise UserError(
                    "iperf3 on this computer did not start listening.",
                    "Use the built-in endpoint.",
                ) from None
            if not line:
                why = said.decode(errors="replace").strip() or "no output"
                raise UserError(
                    f"iperf3 on this computer exited at start (port {self.port}): {why}",
                    "Check that the port is free, or use the built-in endpoint.",
                )
            said = line
            if b"listening" in line.lower():
                return

    @staticmethod
    async def _drain(proc: asyncio.subprocess.Process) -> None:
        if proc.stdout is not None:
            with contextlib.suppress(Exception):
                while await proc.stdout.readline():
                    pass

    async def stop(self) -> None:
        proc, self._proc = self._proc, None
        drainer, self._drainer = self._drainer, None
        if proc is not None:
            await _end_process(proc)
        if drainer is not None:
            drainer.cancel()
            await asyncio.wait([drainer])


async def _end_process(proc: asyncio.subprocess.Process) -> None:
    """TERM, then KILL after 5 s; always reaped, even when the caller is cancelled."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
    try:
        await aio.wait_for(proc.wait(), 5)
    except asyncio.TimeoutError:
        _kill(proc)
        await proc.wait()
    except BaseException:
        _kill(proc)
        await asyncio.shield(proc.wait())
        raise


def _kill(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


async def _version_of(binary: Path) -> str | None:
    """The first line of `iperf3 --version` (None if it says nothing within 10 s)."""
    probe = await asyncio.create_subprocess_exec(
        str(binary),
        "--version",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await aio.wait_for(probe.communicate(), 10)
    except asyncio.TimeoutError:
        await _end_process(probe)
        return None
    except BaseException:
        await _end_process(probe)
        raise
    lines = out.decode(errors="replace").splitlines()
    return lines[0] if lines else None


def make_endpoint(
    kind: EndpointKind, bind: str, iperf3_path: str | None = None, port: int = 0
) -> PcEndpoint:
    """An endpoint for one test on `bind`; `port` 0 picks a free one when it starts."""
    if kind == "builtin":
        return BuiltinEndpoint(bind, port)
    return SystemIperf3(bind, find_system_iperf3(iperf3_path), port)
