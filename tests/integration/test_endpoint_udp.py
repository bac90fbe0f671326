"""The built-in endpoint's UDP mode against the real, unmodified iperf3 client, compared with
the C ``iperf3 -s`` on the same settings; 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import shutil
import socket
from collections.abc import AsyncIterator

import pytest

from sbctune.measure.endpoint import IperfEndpoint
from sbctune.measure.iperf_output import Record, parse_json_output

HOST = "127.0.0.1"
IPERF3 = shutil.which("iperf3")

pytestmark = [
    pytest.mark.skipif(IPERF3 is None, reason="needs the iperf3 client and server"),
    pytest.mark.timeout(90),
]

#: A rate loopback carries without loss even on a busy machine; 1400-byte datagrams.
RATE = "20M"
SECONDS = 3


async def client(port: int, *args: str) -> tuple[list[Record], str]:
    """Run the iperf3 client (-u -J) to completion; its final sums and its stderr."""
    assert IPERF3 is not None
    end = [] if "-n" in args else ["-t", str(SECONDS)]  # one end condition only
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-c", HOST, "-p", str(port), "-u", "-b", RATE, "-l", "1400", *end, "-J", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 40)
    assert proc.returncode == 0, out.decode()[-2000:] + err.decode()
    records, warnings = parse_json_output(out.decode(), reverse="-R" in args)
    assert warnings == []
    return records, err.decode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def c_server() -> AsyncIterator[int]:
    assert IPERF3 is not None
    port = _free_port()
    proc = await asyncio.create_subprocess_exec(
        IPERF3, "-s", "-p", str(port), "--bind", HOST,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(50):  # bounded: 5 s for the server to listen
            try:
                _, writer = await asyncio.open_connection(HOST, port)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            writer.close()
            break
        await asyncio.sleep(0.3)  # the probe above counts as a (failed) client
        yield port
    finally:
        proc.terminate()
        await proc.wait()


@pytest.fixture
async def endpoint() -> AsyncIterator[IperfEndpoint]:
    ep = IperfEndpoint(HOST, 0)
    await ep.start()
    try:
        yield ep
    finally:
        await ep.stop()


def receiver(records: list[Record]) -> Record:
    return next(r for r in records if r.summary == "receiver" and r.stream is None)


def sender(records: list[Record]) -> Record:
    return next(r for r in records if r.summary == "sender" and r.stream is None)


@pytest.mark.parametrize("counters", [[], ["--udp-counters-64bit"]], ids=["32bit", "64bit"])
async def test_client_sends_endpoint_counts_like_the_c_server(
    endpoint: IperfEndpoint, c_server: int, counters: list[str]
) -> None:
    ours, _ = await client(endpoint.port, *counters)
    theirs, _ = await client(c_server, *counters)
    got, ref = receiver(ours), receiver(theirs)
    assert got.packets is not None and got.lost is not None and got.jitter_ms is not None
    assert ref.packets is not None and ref.lost is not None and ref.jitter_ms is not None
    # The client prints the endpoint's own count: every datagram it sent was numbered and seen.
    assert got.packets == sender(ours).packets
    assert got.jitter_ms > 0  # the endpoint's jitter reached the client (0 if not sent)
    assert got.jitter_ms < 20 * max(ref.jitter_ms, 0.05)
    got_loss, ref_loss = got.lost_percent or 0.0, ref.lost_percent or 0.0
    assert got_loss <= ref_loss + 1.0, (got, ref)
    assert got.bytes >= 0.95 * ref.bytes, (got, ref)
    result = await endpoint.wait_test(10)
    assert result.completed and result.params is not None
    assert result.params.udp_counters_64bit == bool(counters)
    udp = result.sums["rx"].udp
    assert udp is not None and (udp.lost, udp.packets) == (got.lost, got.packets)
    assert udp.out_of_order == 0  # loopback does not reorder


async def test_endpoint_sends_paced_like_the_c_server(
    endpoint: IperfEndpoint, c_server: int
) -> None:
    ours, _ = await client(endpoint.port, "-R")
    theirs, _ = await client(c_server, "-R")
    got, ref = receiver(ours), receiver(theirs)
    sent = sender(ours)
    assert got.packets is not None and got.lost is not None and sent.packets is not None
    # The client numbered its receipts by our sequence numbers: they started at 1, in order.
    assert got.out_of_order == 0 and got.packets <= sent.packets + 1
    # Paced at -b: what we sent is the asked rate over the test, not a line-rate flood.
    assert 0.85 * 20 < sent.mbps < 1.1 * 20, sent
    assert (got.lost_percent or 0.0) <= (ref.lost_percent or 0.0) + 1.0, (got, ref)
    assert got.bytes >= 0.95 * ref.bytes, (got, ref)
    result = await endpoint.wait_test(10)
    udp = result.sums["tx"].udp
    assert result.completed and udp is not None and udp.packets > 0


async def test_bidir_and_parallel_streams(endpoint: IperfEndpoint) -> None:
    records, _ = await client(endpoint.port, "--bidir", "-P", "2")
    received = [r for r in records if r.summary == "receiver" and r.stream is None]
    assert {r.direction for r in received} == {"pi_to_pc", "pc_to_pi"}
    assert all(r.packets and r.lost is not None for r in received)
    result = await endpoint.wait_test(10)
    assert result.completed and set(result.sums) == {"rx", "tx"}
    assert [s.stream_id for s in result.streams] == [1, 3, 4, 5]
    assert all(s.udp is not None for s in result.streams)


async def test_reverse_byte_limit_ends_the_test(endpoint: IperfEndpoint) -> None:
    """-R -n: the endpoint stops sending at the limit and the client ends the test there."""
    records, _ = await client(endpoint.port, "-R", "-n", "2M")
    sent = sender(records)
    assert 2 * 1024 * 1024 <= sent.bytes < 2 * 1024 * 1024 + 1400
    assert sent.end < SECONDS  # ended by the limit, not by -t
    assert (await endpoint.wait_test(10)).completed
