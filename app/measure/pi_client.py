"""The iperf3 client on the Pi: started over SSH, read live, stopped on cancel.

The Pi runs the real iperf3 binary; this module builds its argument list, reads its live
output (`--forceflush` text, or `--json-stream` from iperf3 3.17), and turns its failures into
messages that say what to do.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from sbctune.errors import UserError
from sbctune.inventory.parsers.iperf import parse_iperf3_version
from sbctune.measure.iperf_output import (
    Record,
    parse_error,
    parse_json_stream_line,
    parse_text_line,
)
from sbctune.remote import CommandFailed, Session

# A safety margin on top of the test's own duration before the client is considered hung.
_GRACE_S = 20.0


class IperfMissing(UserError):
    def __init__(self) -> None:
        super().__init__(
            "iperf3 is not installed on the Pi.",
            "Install it on the Pi (`sudo apt-get install iperf3`, `sudo apk add iperf3` or "
            "`sudo dnf install iperf3`), or let sbctune install it for you.",
        )


class IperfFailed(UserError):
    """The client stopped with an error; the message names the likely cause."""


def explain_error(message: str, server: str, port: int) -> IperfFailed:
    lower = message.lower()
    if "busy" in lower:
        return IperfFailed(
            f"The iperf3 server at {server}:{port} is busy running another test.",
            "Wait for the other test to finish, or stop it, then try again.",
        )
    if "connection refused" in lower or "no route" in lower or "timed out" in lower:
        return IperfFailed(
            f"The Pi could not reach the test endpoint on this computer ({server}:{port}): "
            f"{message}.",
            "Allow sbctune through this computer's firewall (Windows Defender Firewall: allow "
            "sbctune on private networks; macOS: System Settings → Network → Firewall → "
            "Options → allow sbctune), and check that the Pi and this computer are on the same "
            "network.",
        )
    return IperfFailed(f"iperf3 on the Pi stopped with an error: {message}", "")


@dataclass(frozen=True)
class ClientOptions:
    server: str
    port: int
    duration: int = 10
    omit: int = 0
    streams: int = 1
    reverse: bool = False  # PC sends, Pi receives
    bidir: bool = False  # both at once
    bitrate_mbps: float | None = None  # per stream, client side (-b)
    bind: str | None = None  # the Pi's address on the NIC under test
    interval: float = 1.0


def client_argv(options: ClientOptions, *, json_stream: bool) -> list[str]:
    argv = [
        "iperf3", "-c", options.server, "-p", str(options.port),
        "-t", str(options.duration), "-P", str(options.streams),
        "-i", f"{options.interval:g}",
    ]  # fmt: skip
    if options.omit:
        argv += ["-O", str(options.omit)]
    if options.bind:
        argv += ["-B", options.bind]
    if options.reverse:
        argv.append("-R")
    if options.bidir:
        argv.append("--bidir")
    if options.bitrate_mbps:
        argv += ["-b", f"{options.bitrate_mbps:g}M"]
    argv.append("--json-stream" if json_stream else "--forceflush")
    return argv


@dataclass
class ClientResult:
    intervals: list[Record] = field(default_factory=list)
    summaries: list[Record] = field(default_factory=list)
    complete: bool = False
    error: str | None = None


async def iperf3_version(session: Session) -> tuple[int, int, int]:
    result = await session.run(["iperf3", "--version"], timeout=20)
    if result.exit_code == 127:
        raise IperfMissing()
    parsed, _warnings = parse_iperf3_version(result.stdout + result.stderr)
    numbers = parsed.version_tuple
    if not numbers:
        raise IperfFailed(
            "Could not tell which iperf3 the Pi has: " + (result.stdout or result.stderr)[:200],
            "Check that `iperf3 --version` works on the Pi.",
        )
    major, minor, patch = (*numbers, 0, 0)[:3]
    return major, minor, patch


async def run_client(
    session: Session,
    options: ClientOptions,
    *,
    version: tuple[int, int, int],
    on_interval: Callable[[Record], None] | None = None,
) -> ClientResult:
    """Run one test; every interval goes to `on_interval` as soon as the Pi prints it.

    Cancelling the task kills the client on the Pi. A lost link keeps what arrived and marks
    the result incomplete.
    """
    json_stream = version >= (3, 17, 0)  # --json-stream arrived in iperf3 3.17
    argv = client_argv(options, json_stream=json_stream)
    try:
        process = await session.start(argv)
    except CommandFailed as exc:
        if exc.returncode == 127:
            raise IperfMissing() from None
        raise
    result = ClientResult()
    single = options.streams == 1

    def take(record: Record) -> None:
        if record.summary is not None:
            if record.stream is None or single:
                result.summaries.append(record)
            return
        if record.stream is None or single:
            result.intervals.append(record)
            if on_interval is not None:
                on_interval(record)

    async def read() -> None:
        async for line in process.lines():
            error = parse_error(line)
            if error:
                result.error = error
            if json_stream:
                for record in parse_json_stream_line(line, reverse=options.reverse):
                    take(record)
            else:
                parsed = parse_text_line(line, reverse=options.reverse)
                if parsed is not None:
                    take(parsed)

    limit = options.duration + options.omit + _GRACE_S
    try:
        await asyncio.wait_for(read(), limit)
    except asyncio.TimeoutError:
        await process.cancel()
        result.error = f"the client did not finish within {limit:g} s"
        return result
    stderr = await process.read_stderr()
    code = await process.wait()
    if result.error is None and code != 0:
        result.error = parse_error(stderr) or stderr.strip() or f"exit code {code}"
    if result.error and not result.intervals:
        raise explain_error(result.error, options.server, options.port)
    result.complete = code == 0 and result.error is None and bool(result.summaries)
    return result
