"""The built-in endpoint against the real, unmodified iperf3 client, on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from sbctune.errors import UserError
from sbctune.measure.endpoint import (
    IntervalSample,
    IperfEndpoint,
    PortInUseError,
    TestStart,
)

HOST = "127.0.0.1"
IPERF3 = shutil.which("iperf3")

pytestmark = [
    pytest.mark.skipif(IPERF3 is None, reason="needs the iperf3 client"),
    pytest.mark.timeout(60),
]


@dataclass
class Run:
    rc: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


async def iperf3(port: int, *args: str, seconds: float = 1, timeout: float = 30) -> Run:
    """Run the iperf3 client to completion without blocking the endpoint's event loop."""
    assert IPERF3 is not None
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-c", HOST, "-p", str(port), "-t", str(seconds), *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return Run(proc.returncode, out.decode(), err.decode())


@dataclass
class Recorder:
    samples: list[tuple[float, IntervalSample]] = field(default_factory=list)
    starts: list[TestStart] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)

    def sample(self, s: IntervalSample) -> None:
        self.samples.append((time.monotonic(), s))

    def start(self, info: TestStart) -> None:
        self.starts.append(info)
        self.started.set()


@pytest.fixture
async def rec() -> Recorder:
    return Recorder()


@pytest.fixture
async def endpoint(rec: Recorder) -> AsyncIterator[IperfEndpoint]:
    ep = IperfEndpoint(HOST, 0, on_interval=rec.sample, on_test_start=rec.start)
    await ep.start()
    try:
        yield ep
    finally:
        await ep.stop()


SUMMARY = re.compile(r"sec\s+[\d.]+ \w?Bytes\s+[\d.]+ \w?bits/sec.*\b(sender|receiver)\s*$")


def summary_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if SUMMARY.search(line)]


# -- every mode the client offers -------------------------------------------------------------
MODES = {
    "normal": [],
    "reverse": ["-R"],
    "bidir": ["--bidir"],
    "parallel10": ["-P", "10"],
    "omit2": ["-O", "2"],
    "rate100M": ["-b", "100M"],
    "len64K": ["-l", "64K"],
}


@pytest.mark.parametrize("mode", list(MODES))
async def test_client_prints_both_sides(endpoint: IperfEndpoint, mode: str) -> None:
    run = await iperf3(endpoint.port, *MODES[mode])
    assert run.rc == 0, run.text
    assert "iperf Done." in run.out
    lines = summary_lines(run.out)
    assert any(line.rstrip().endswith("sender") for line in lines), run.out
    assert any(line.rstrip().endswith("receiver") for line in lines), run.out
    if mode == "parallel10":
        assert any(line.startswith("[SUM]") for line in lines), run.out
    result = await endpoint.wait_test(10)
    assert result.completed, result.reason
    assert result.params is not None
    directions = {"reverse": {"tx"}, "bidir": {"rx", "tx"}}.get(mode, {"rx"})
    assert set(result.sums) == directions
    # With -O each side ends its omitted seconds on its own clock, so the counts differ by what
    # crossed between the two boundaries (a busy machine: 1.4 % was seen at 3 Gbit/s).
    slack = 1.05 if mode == "omit2" else 1.01
    for total in result.sums.values():
        assert total.sender_bytes and total.receiver_bytes  # both sides known
        assert total.receiver_bytes <= total.sender_bytes * slack
    if mode == "rate100M":
        bps = result.sums["rx"].receiver_bits_per_second
        assert bps is not None and 80e6 < bps < 120e6
    if mode == "parallel10":
        assert result.sums["rx"].streams == 10
        assert [s.stream_id for s in result.streams] == [1, *range(3, 12)]


async def test_reverse_rate_is_paced_by_the_endpoint(endpoint: IperfEndpoint) -> None:
    run = await iperf3(endpoint.port, "-R", "-b", "200M", "-P", "2", "-J")
    assert run.rc == 0, run.text
    received = json.loads(run.out)["end"]["sum_received"]["bits_per_second"]
    assert 360e6 < received < 440e6  # 2 streams x 200 Mbit/s


async def test_json_client_matches_endpoint_counts(endpoint: IperfEndpoint) -> None:
    run = await iperf3(endpoint.port, "-J", "--bidir", "-P", "2")
    assert run.rc == 0, run.text
    end = json.loads(run.out)["end"]
    result = await endpoint.wait_test(10)
    rx, tx = result.sums["rx"], result.sums["tx"]
    # What the client prints for the endpoint's side is exactly what the endpoint counted.
    assert end["sum_received"]["bytes"] == rx.receiver_bytes
    assert end["sum_sent"]["bytes"] == rx.sender_bytes
    assert end["sum_sent_bidir_reverse"]["bytes"] == tx.sender_bytes
    assert end["sum_received_bidir_reverse"]["bytes"] == tx.receiver_bytes
    assert tx.retransmits is not None  # Linux reports the endpoint's retransmits


async def test_byte_count_end_condition(endpoint: IperfEndpoint) -> None:
    assert IPERF3 is not None
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-c", HOST, "-p", str(endpoint.port), "-R", "-n", "200M", "-J",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0
    assert json.loads(out)["end"]["sum_received"]["bytes"] >= 200 * 1024 * 1024
    assert (await endpoint.wait_test(10)).completed


async def test_sctp_client_is_told_not_supported(endpoint: IperfEndpoint) -> None:
    run = await iperf3(endpoint.port, "--sctp")
    assert run.rc != 0
    result = await endpoint.wait_test(10)
    assert result.status == "rejected" and "SCTP" in result.reason
    assert (await iperf3(endpoint.port)).rc == 0  # still serving


# -- agreement with the C server --------------------------------------------------------------
@pytest.fixture
async def c_server() -> AsyncIterator[int]:
    assert IPERF3 is not None
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = int(s.getsockname()[1])
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-s", "-B", HOST, "-p", str(port),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await asyncio.sleep(0.5)
        yield port
    finally:
        proc.terminate()
        await proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("mode", [[], ["-R"]], ids=["forward", "reverse"])
async def test_agrees_with_c_server_at_capped_rate(
    endpoint: IperfEndpoint, c_server: int, mode: list[str]
) -> None:
    figures = []
    for port in (c_server, endpoint.port):
        run = await iperf3(port, "-b", "500M", "-J", *mode, seconds=2)
        assert run.rc == 0, run.text
        end = json.loads(run.out)["end"]
        figures.append((end["sum_sent"]["bits_per_second"], end["sum_received"]["bits_per_second"]))
    (c_sent, c_recv), (b_sent, b_recv) = figures
    assert b_sent == pytest.approx(c_sent, rel=0.03)
    assert b_recv == pytest.approx(c_recv, rel=0.03)


# -- busy, abort, several endpoints -----------------------------------------------------------
@pytest.mark.slow
async def test_second_client_is_told_busy(endpoint: IperfEndpoint, rec: Recorder) -> None:
    first = asyncio.ensure_future(iperf3(endpoint.port, seconds=3))
    await asyncio.wait_for(rec.started.wait(), 10)
    second = await iperf3(endpoint.port)
    assert second.rc != 0
    assert "the server is busy running a test" in second.text
    run = await first
    assert run.rc == 0, run.text
    result = await endpoint.wait_test(10)
    assert result.completed


@pytest.mark.slow
@pytest.mark.parametrize("mode", [["--bidir", "-P", "2"], ["-R"]], ids=["bidir", "reverse"])
async def test_killed_client_leaves_endpoint_ready(
    endpoint: IperfEndpoint, rec: Recorder, mode: list[str]
) -> None:
    assert IPERF3 is not None
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-c", HOST, "-p", str(endpoint.port), "-t", "10", *mode,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    await asyncio.wait_for(rec.started.wait(), 10)
    await asyncio.sleep(0.7)
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    result = await endpoint.wait_test(5)
    assert result.status == "aborted"
    assert result.sums and all(s.endpoint_bytes for s in result.sums.values())
    assert not endpoint.busy
    run = await iperf3(endpoint.port)
    assert run.rc == 0, run.text
    assert (await endpoint.wait_test(10)).completed


async def test_client_ctrl_c_is_an_abort(endpoint: IperfEndpoint, rec: Recorder) -> None:
    assert IPERF3 is not None
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-c", HOST, "-p", str(endpoint.port), "-t", "10",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    await asyncio.wait_for(rec.started.wait(), 10)
    await asyncio.sleep(0.5)
    proc.send_signal(signal.SIGINT)  # the client sends CLIENT_TERMINATE
    await proc.wait()
    result = await endpoint.wait_test(5)
    assert result.status == "aborted"
    assert (await iperf3(endpoint.port)).rc == 0


async def test_stopping_the_endpoint_mid_test_tells_the_client(
    endpoint: IperfEndpoint, rec: Recorder
) -> None:
    client = asyncio.ensure_future(iperf3(endpoint.port, seconds=10))
    await asyncio.wait_for(rec.started.wait(), 10)
    await asyncio.sleep(0.3)
    await endpoint.stop()
    run = await client
    assert run.rc != 0
    assert "the server has terminated" in run.text
    assert endpoint.results[-1].status == "aborted"
    assert not endpoint.serving


@pytest.mark.slow
async def test_two_endpoints_serve_two_clients_at_once() -> None:
    async with IperfEndpoint(HOST, 0) as a, IperfEndpoint(HOST, 0) as b:
        assert a.port != b.port
        runs = await asyncio.gather(iperf3(a.port, seconds=2), iperf3(b.port, "-R", seconds=2))
        assert all(r.rc == 0 for r in runs), [r.text for r in runs]
        ra, rb = await a.wait_test(10), await b.wait_test(10)
        assert ra.completed and rb.completed
        assert ra.test_id != rb.test_id
        assert set(ra.sums) == {"rx"} and set(rb.sums) == {"tx"}


# -- live intervals ---------------------------------------------------------------------------
@pytest.mark.slow
async def test_live_intervals_every_second_and_sum_to_total(
    endpoint: IperfEndpoint, rec: Recorder
) -> None:
    t0 = time.monotonic()
    run = await iperf3(endpoint.port, "-O", "1", "-P", "2", seconds=3)
    assert run.rc == 0, run.text
    result = await endpoint.wait_test(10)
    samples = [s for _, s in rec.samples if s.test_id == result.test_id]
    arrivals = [t for t, s in rec.samples if s.test_id == result.test_id]
    assert {s.stream_id for s in samples} == {1, 3}
    assert all(s.direction == "rx" for s in samples)
    # Live: they arrive during the test, never more than about a second apart.
    gaps = [b - a for a, b in zip([t0, *arrivals], arrivals, strict=False)]
    assert max(gaps) < 1.5
    assert any(s.omitted for s in samples) and not samples[-1].omitted
    for stream in result.streams:
        mine = [s for s in samples if s.stream_id == stream.stream_id]
        counted = sum(s.bytes for s in mine if not s.omitted)
        biggest = max(s.bytes for s in mine)
        assert abs(counted - stream.bytes) <= biggest  # +-1 interval (exact here)
        # Intervals tile the test without gaps or overlaps.
        for a, b in itertools.pairwise(mine):
            assert b.t_start == pytest.approx(a.t_end)


async def test_server_output_shows_the_endpoints_intervals(endpoint: IperfEndpoint) -> None:
    """``--get-server-output``: the client prints the endpoint's own lines, the warm-up's
    interval marked omitted and the measured ones not."""
    run = await iperf3(endpoint.port, "-O", "1", "--get-server-output", seconds=1)
    assert run.rc == 0, run.text
    shown = run.text.partition("Server output:")[2]
    assert "Accepted connection from 127.0.0.1" in shown, run.text
    sums = [line for line in shown.splitlines() if line.startswith("[SUM]")]
    assert any(line.endswith("rx  (omitted)") for line in sums), shown
    assert any(line.endswith("rx") for line in sums), shown
    assert "[completed]" in shown, shown


async def test_intervals_async_iterator(endpoint: IperfEndpoint) -> None:
    got: list[IntervalSample] = []

    async def consume() -> None:
        async for sample in endpoint.intervals():
            got.append(sample)

    consumer = asyncio.ensure_future(consume())
    await asyncio.sleep(0)
    assert (await iperf3(endpoint.port, "-R")).rc == 0
    await endpoint.wait_test(10)
    await endpoint.stop()
    await asyncio.wait_for(consumer, 5)  # ends when the endpoint stops
    assert got and all(s.direction == "tx" for s in got)


# -- lifecycle --------------------------------------------------------------------------------
async def test_one_off_stops_after_one_test_and_unbinds() -> None:
    ep = IperfEndpoint(HOST, 0, one_off=True)
    await ep.start()
    port = ep.port
    assert port != 0 and ep.serving
    assert (await iperf3(port)).rc == 0
    result = await ep.wait_test(10)
    await asyncio.wait_for(ep.wait_closed(), 5)
    assert result.completed and not ep.serving
    with socket.socket() as s:  # the port is free again
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((HOST, port))


async def test_port_in_use_is_a_clear_user_error() -> None:
    async with IperfEndpoint(HOST, 0) as first:
        second = IperfEndpoint(HOST, first.port)
        with pytest.raises(PortInUseError) as info:
            await second.start()
        err = info.value
        assert isinstance(err, UserError)
        assert str(first.port) in err.message and "in use" in err.message
        assert "--port" in err.hint
        assert not second.serving


# -- the command ------------------------------------------------------------------------------
@pytest.mark.slow
async def test_serve_command_prints_and_stops_cleanly_on_ctrl_c() -> None:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = int(s.getsockname()[1])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sbctune", "serve", "--bind", HOST, "--port", str(port),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert proc.stdout is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 15)
    assert f"{HOST}:{port}" in first.decode()
    assert "TCP and UDP" in first.decode()  # it serves both (it said "TCP only")
    run = await iperf3(port, "-R")
    assert run.rc == 0, run.text
    lines = []
    while not any("Mbit/s" in line for line in lines):
        lines.append((await asyncio.wait_for(proc.stdout.readline(), 10)).decode())
    assert any("tx" in line and "completed" in line for line in lines), lines
    proc.send_signal(signal.SIGINT)
    rest, err = await asyncio.wait_for(proc.communicate(), 10)
    assert proc.returncode == 0, err
    assert "stopped" in rest.decode()
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((HOST, port))


def test_serve_command_on_a_busy_port_says_so_and_what_to_do() -> None:
    with socket.socket() as squatter:
        squatter.bind((HOST, 0))
        squatter.listen(1)
        port = squatter.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "sbctune", "serve", "--bind", HOST, "--port", str(port)],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    assert proc.returncode == 1
    assert f"sbctune: port {port} on {HOST} is already in use" in proc.stderr
    assert "--port N" in proc.stderr and "Traceback" not in proc.stderr


# -- a client's bad input: a log line, the connection closed, the endpoint unharmed ----------
async def _hostile_client(port: int, body: bytes) -> bytes:
    """A client that sends `body` as its parameters; what the endpoint answered."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(b"h" * 36 + b"\0")  # the cookie
        await writer.drain()
        assert await asyncio.wait_for(reader.readexactly(1), 10) == bytes([9])  # PARAM_EXCHANGE
        writer.write(struct.pack("!I", len(body)) + body)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)  # until the endpoint closes
    finally:
        writer.close()


@pytest.mark.parametrize(
    "body",
    [b'{"tcp":true,"time":NaN,"parallel":1}', b'{"tcp":true,"len":Infinity}',
     b'{"tcp":true,"time":1e400}', b"[" * 100_000 + b"]" * 100_000],
    ids=["NaN", "Infinity", "1e400", "nested-100000"],
)  # fmt: skip
async def test_a_clients_bad_parameters_are_one_log_line_and_the_one_off_still_serves(
    body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    ep = IperfEndpoint(HOST, 0, one_off=True)  # as measure's built-in endpoint runs
    await ep.start()
    try:
        with caplog.at_level(logging.INFO, logger="sbctune.measure.endpoint"):
            await _hostile_client(ep.port, body)
            await asyncio.sleep(0.2)
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(lines) == 1 and "sent no usable test parameters" in lines[0], lines
        assert all(r.exc_info is None for r in caplog.records)  # no traceback
        assert ep.serving, "a stranger's garbage must not use up the one-off endpoint"
        run = await iperf3(ep.port)  # the real test still runs
        assert run.rc == 0, run.text
        assert (await ep.wait_test(10)).completed
    finally:
        await ep.stop()
