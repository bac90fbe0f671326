"""The iperf3 client on the Pi: started over SSH, read live, stopped on cancel.

The Pi runs the real iperf3 binary; this module builds its argument list, reads its live
output (`--forceflush` text, or `--json-stream` from iperf3 3.17), and turns its failures into
messages that say what to do.
"""

from __future__ import annotations

import asyncio
import platform
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from sbctune import aio
from sbctune.errors import UserError
from sbctune.inventory.parsers.iperf import parse_iperf3_version
from sbctune.measure.iperf_output import (
    Record,
    parse_error,
    parse_json_stream_line,
    parse_out_of_order,
    parse_text_line,
)
from sbctune.remote import CommandFailed

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import RemoteProcess, Session

# A safety margin on top of the test's own duration before the client is considered hung.
_GRACE_S = 20.0
#: This many intervals in a row without a byte moving means the link is gone.
STALL_INTERVALS = 3
#: How long the client may try to reach this PC's endpoint (iperf3's --connect-timeout, ms).
CONNECT_TIMEOUT_MS = 5000


class IperfMissing(UserError):
    def __init__(self) -> None:
        super().__init__(
            "iperf3 is not installed on the Pi.",
            "Install it on the Pi (`sudo apt-get install iperf3`, `sudo apk add iperf3` or "
            "`sudo dnf install iperf3`), or let sbctune install it for you.",
        )


class IperfFailed(UserError):
    """The client stopped with an error; the message names the likely cause."""


def firewall_hint(system: str, port: int) -> str:
    """What to allow in this computer's firewall, for the OS it runs (platform.system())."""
    if system == "Windows":
        return (
            "Windows Defender Firewall must allow sbctune: Windows Security → Firewall & "
            "network protection → Allow an app through firewall → allow sbctune on Private "
            "networks. Also check that the Pi and this computer are on the same network."
        )
    if system == "Darwin":
        return (
            "The macOS application firewall must allow sbctune: System Settings → Network → "
            "Firewall → Options → set sbctune to “Allow incoming connections”. Also check that "
            "the Pi and this computer are on the same network."
        )
    return (
        f"A firewall on this computer must let the Pi connect to TCP port {port} (ufw: `sudo "
        f"ufw allow {port}/tcp`; firewalld: `sudo firewall-cmd --add-port={port}/tcp`; with "
        "--pc-port N the port stays the same between runs). Also check that the Pi and this "
        "computer are on the same network."
    )


def explain_error(message: str, server: str, port: int, system: str | None = None) -> IperfFailed:
    """The client's error as a message that says what to do; `system` is this PC's OS."""
    lower = message.lower()
    if "busy" in lower:
        return IperfFailed(
            f"The iperf3 server at {server}:{port} is busy running another test.",
            "Wait for the other test to finish, or stop it, then try again.",
        )
    if "connection refused" in lower or "no route" in lower or "timed out" in lower:
        return IperfFailed(
            f"The Pi could not connect to the test endpoint on this computer ({server}:{port}): "
            f"{message}.",
            firewall_hint(system or platform.system(), port),
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
    udp: bool = False  # a UDP test (-u) paced at bitrate_mbps; datagram size: iperf3's default


def client_argv(
    options: ClientOptions, *, json_stream: bool, connect_timeout_ms: int | None = None
) -> list[str]:
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
    if options.udp:
        # No -l: iperf3 sizes datagrams from the control connection's TCP MSS (the path MTU
        # less the headers), so none is IP-fragmented.
        argv.append("-u")
    if options.bitrate_mbps:
        argv += ["-b", f"{options.bitrate_mbps:g}M"]
    if connect_timeout_ms:
        argv += ["--connect-timeout", str(connect_timeout_ms)]
    argv.append("--json-stream" if json_stream else "--forceflush")
    return argv


@dataclass
class ClientResult:
    intervals: list[Record] = field(default_factory=list)
    summaries: list[Record] = field(default_factory=list)
    complete: bool = False
    error: str | None = None
    link_lost: bool = False  # data stopped moving mid-test; the intervals so far are kept


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


def _link_lost_message(options: ClientOptions, at: float, why: str) -> str:
    return (
        f"the link to this computer ({options.server}) was lost {at:.0f} s into the test: {why}. "
        "The figures up to then are kept, marked incomplete. Check the cable and the link of "
        "the NIC under test, then measure again"
    )


class _Reader:
    """Takes the client's output, line by line, into a ``ClientResult``, and notices a lost
    link (no data moving for ``STALL_INTERVALS`` intervals)."""

    def __init__(
        self,
        options: ClientOptions,
        json_stream: bool,
        on_interval: Callable[[Record], None] | None,
    ) -> None:
        self.options = options
        self.json_stream = json_stream
        self.on_interval = on_interval
        self.result = ClientResult()
        self.single = options.streams == 1
        self.zeros: dict[str, int] = {}
        self.out_of_order: dict[str, int] = {}
        self.lost: list[str] = []

    def take(self, record: Record) -> None:
        result = self.result
        if record.summary is not None:
            if record.stream is None or self.single:
                result.summaries.append(record)
                self._attach_out_of_order()
            return
        if record.stream is None or self.single:
            result.intervals.append(record)
            zeros = self.zeros
            zeros[record.direction] = zeros.get(record.direction, 0) + 1 if not record.bytes else 0
            if zeros[record.direction] >= STALL_INTERVALS and not self.lost:
                self.lost.append(f"no data moved for {STALL_INTERVALS * self.options.interval:g} s")
            if self.on_interval is not None:
                self.on_interval(record)

    def feed(self, line: str) -> None:
        error = parse_error(line)
        if error:
            self.result.error = error
        if self.json_stream:
            for record in parse_json_stream_line(line, reverse=self.options.reverse):
                self.take(record)
        else:
            parsed = parse_text_line(line, reverse=self.options.reverse, udp=self.options.udp)
            if parsed is not None:
                self.take(parsed)
            elif self.options.udp:
                self._out_of_order(line)

    def _out_of_order(self, line: str) -> None:
        """iperf3's text reports the client's out-of-order count on a line of its own, after
        the receiver summary: put it on that summary."""
        found = parse_out_of_order(line, reverse=self.options.reverse)
        if found is None or (not self.single and not line.lstrip().startswith("[SUM]")):
            return  # with several streams, the [SUM] line has the total
        direction, count = found
        self.out_of_order[direction] = self.out_of_order.get(direction, 0) + count
        self._attach_out_of_order()

    def _attach_out_of_order(self) -> None:
        summaries = self.result.summaries
        for i, record in enumerate(summaries):
            count = self.out_of_order.get(record.direction)
            if record.summary == "receiver" and record.jitter_ms is not None and count:
                summaries[i] = replace(record, out_of_order=count)

    async def read(self, process: RemoteProcess, limit: float, silence: float) -> None:
        """Until the client's output ends or the link is lost; TimeoutError past ``limit``
        seconds, or after ``silence`` seconds without a line once intervals came."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        lines = process.lines()
        while not self.lost:
            wait = limit - (loop.time() - began)
            if self.result.intervals:  # running: intervals come every second, results after
                wait = min(wait, silence)
            if wait <= 0:
                raise asyncio.TimeoutError
            try:
                line = await aio.wait_for(lines.__anext__(), wait)
            except StopAsyncIteration:
                return
            self.feed(line)


def _cut_at_loss(result: ClientResult, options: ClientOptions, why: str) -> ClientResult:
    """The stalled intervals are after the link went; keep the test up to the loss."""
    while result.intervals and not result.intervals[-1].bytes:
        result.intervals.pop()
    at = result.intervals[-1].end if result.intervals else 0.0
    at += 0.0 if not result.intervals or result.intervals[-1].omitted else options.omit
    result.link_lost = True
    result.error = _link_lost_message(options, at, why)
    return result


async def _start(session: Session, argv: list[str]) -> RemoteProcess:
    try:
        return await session.start(argv)
    except CommandFailed as exc:
        if exc.returncode == 127:
            raise IperfMissing() from None
        raise


async def run_client(
    session: Session,
    options: ClientOptions,
    *,
    version: tuple[int, int, int],
    on_interval: Callable[[Record], None] | None = None,
) -> ClientResult:
    """Run one test; every interval goes to `on_interval` as soon as the Pi prints it.

    Cancelling the task kills the client on the Pi. A lost link (no data moving for
    `STALL_INTERVALS` intervals, or the client silent for as long) stops the client within
    seconds, keeps what arrived and marks the result incomplete.
    """
    json_stream = version >= (3, 17, 0)  # --json-stream arrived in iperf3 3.17
    # A bounded connect (firewalls that drop SYNs would otherwise cost minutes); 3.9 has it.
    connect_ms = CONNECT_TIMEOUT_MS if version >= (3, 9, 0) else None
    argv = client_argv(options, json_stream=json_stream, connect_timeout_ms=connect_ms)
    process = await _start(session, argv)
    reader = _Reader(options, json_stream, on_interval)
    result = reader.result
    loop = asyncio.get_running_loop()
    limit = options.duration + options.omit + _GRACE_S
    silence = STALL_INTERVALS * options.interval + 2.0
    began = loop.time()
    try:
        await reader.read(process, limit, silence)
    except asyncio.TimeoutError:
        await process.cancel()
        if not result.intervals or loop.time() - began >= limit:
            result.error = f"the client did not finish within {limit:g} s"
            return result
        reader.lost.append(f"the iperf3 client went silent for {silence:g} s")
    if reader.lost:
        await process.cancel()
        return _cut_at_loss(result, options, reader.lost[0])
    stderr = await process.read_stderr()
    code = await process.wait()
    if result.error is None and code != 0:
        result.error = parse_error(stderr) or stderr.strip() or f"exit code {code}"
    if result.error and not result.intervals:
        raise explain_error(result.error, options.server, options.port)
    result.complete = code == 0 and result.error is None and bool(result.summaries)
    return result
