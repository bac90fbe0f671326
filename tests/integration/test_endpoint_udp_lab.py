"""The built-in endpoint's UDP mode against the real iperf3 client on the lab's 'Pi', over the
lab's shaped link, next to the C ``iperf3 -s`` on the same link and settings.

Relations, not absolute figures (a busy machine moves less): offered above the shaped rate
of Pi -> PC, both servers see loss, and about as much, far more than below it; PC -> Pi (shaped
on this PC's side) neither loses; received rates agree; jitter is of the same order. The
bar's figures (loss within 1 point, throughput within 5 %) are printed
for the report; the asserted tolerances are wider so a busy machine passes, but a counting
bug (no loss seen, loss counted twice, a stream missed) does not."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab.profile import TCP_PAYLOAD_BYTES
from sbctune.lab.shaping import TC_FRAME_BYTES
from sbctune.measure.endpoint import IperfEndpoint
from sbctune.measure.iperf_output import Record, parse_json_output
from sbctune.remote import Session
from tests.lab_shaping import shaped_goodput
from tests.lab_support import connect_to_lab, iperf3_server

pytestmark = [pytest.mark.lab, pytest.mark.timeout(300)]

SIZE = 1400  # datagram payload: one frame of 1442 bytes for tc (IP + UDP + Ethernet headers)
SECONDS = 4


def udp_goodput(tcp_goodput_mbps: float) -> float:
    """The UDP payload rate tc lets through, from the TCP goodput it is shaped to."""
    shaped = tcp_goodput_mbps * TC_FRAME_BYTES / TCP_PAYLOAD_BYTES
    return shaped * SIZE / (SIZE + 8 + 20 + 14)


async def pi_client(session: Session, server: str, port: int, mbps: float, reverse: bool) -> Record:
    argv = [
        "iperf3", "-c", server, "-p", str(port), "-u", "-b", f"{mbps:.1f}M",
        "-l", str(SIZE), "-t", str(SECONDS), "-J",
    ]  # fmt: skip
    if reverse:
        argv.append("-R")
    result = await session.run(argv, timeout=SECONDS + 30)
    assert result.exit_code == 0, result.stdout[-1500:] + result.stderr[-500:]
    records, warnings = parse_json_output(result.stdout, reverse=reverse)
    assert warnings == []
    return next(r for r in records if r.summary == "receiver" and r.stream is None)


async def both_servers(
    session: Session, addr: str, mbps: float, reverse: bool
) -> tuple[Record, Record]:
    """(built-in endpoint's run, C server's run) on the same link and settings."""
    endpoint = IperfEndpoint(addr, 0)
    await endpoint.start()
    try:
        ours = await pi_client(session, addr, endpoint.port, mbps, reverse)
        assert (await endpoint.wait_test(10)).completed
    finally:
        await endpoint.stop()
    proc, port = await asyncio.to_thread(iperf3_server, addr)
    try:
        theirs = await pi_client(session, addr, port, mbps, reverse)
    finally:
        proc.terminate()
        await asyncio.to_thread(proc.wait, 10)
    return ours, theirs


def _line(what: str, ours: Record, theirs: Record) -> str:
    return (
        f"{what}: built-in {ours.mbps:.1f} Mbit/s, loss {ours.lost_percent:.2f} %, jitter "
        f"{ours.jitter_ms:.3f} ms | C server {theirs.mbps:.1f} Mbit/s, loss "
        f"{theirs.lost_percent:.2f} %, jitter {theirs.jitter_ms:.3f} ms"
    )


@pytest.mark.parametrize("reverse", [False, True], ids=["pi_to_pc", "pc_to_pi"])
async def test_udp_loss_and_jitter_agree_with_the_c_server(
    lab_factory: Any, tmp_path: Path, reverse: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="sbctune.measure.endpoint.udp")
    lab = lab_factory(profile="pi1b-smsc95xx")  # ~94 Mbit/s: rates a Python endpoint paces
    nic = lab.test_nic
    direction = "pc_to_pi" if reverse else "pi_to_pc"
    limit = udp_goodput(shaped_goodput(nic)[direction])
    # One more measurement of both servers when they disagree: the endpoint paces from a
    # Python thread, and another test process's lab traffic on two cores can stall it for a
    # burst (the merged tree's two-process runs saw 7 % loss or 95 vs 71 Mbit/s once each,
    # where alone both agree); two disagreements in a row still fail.
    for attempt in (1, 2):
        async with await connect_to_lab(lab, tmp_path) as session:
            over = await both_servers(session, nic.host_addr, 1.3 * limit, reverse)
            under = await both_servers(session, nic.host_addr, 0.5 * limit, reverse)
        try:
            _agree(direction, limit, reverse, over, under, caplog.messages)
            break
        except AssertionError:
            if attempt == 2:
                raise
            caplog.clear()


def _agree(
    direction: str, limit: float, reverse: bool, over: Any, under: Any, messages: list[str]
) -> None:
    print(f"\n{direction}, shaped UDP goodput {limit:.1f} Mbit/s")
    print(_line("offered 1.3x", *over))
    print(_line("offered 0.5x", *under))
    for line in messages:  # loss that was this PC's socket's, not the network's
        print(line)
    for ours, theirs in (over, under):
        for r in (ours, theirs):
            assert r.lost_percent is not None and r.jitter_ms is not None and r.packets
    (o_ours, o_c), (u_ours, u_c) = over, under
    assert o_ours.lost_percent is not None and o_c.lost_percent is not None
    assert u_ours.lost_percent is not None and u_c.lost_percent is not None
    if not reverse:
        # Pi -> PC is shaped on the way in (an IFB): 1.3x the shaped rate loses ~23 % there.
        # Both servers see it, within a few points of each other; well below the shaped rate
        # only what a busy machine drops (both servers saw 1 to 7 % at load 10 on 2 cores).
        assert o_ours.lost_percent > 10 and o_c.lost_percent > 10
        assert abs(o_ours.lost_percent - o_c.lost_percent) < 5, (o_ours, o_c)
        assert o_ours.lost_percent > u_ours.lost_percent + 10, (o_ours, u_ours)
        assert u_ours.lost_percent < max(5.0, u_c.lost_percent + 3), (u_ours, u_c)
    else:
        # PC -> Pi is shaped on this PC's own veth: the kernel holds a sender back to the
        # shaped rate instead of dropping (the C server's and the endpoint's alike, as the
        # endpoint keeps the OS's send buffer), so neither reports loss, over or under.
        for ours, theirs in (over, under):
            assert ours.lost_percent is not None and theirs.lost_percent is not None
            assert ours.lost_percent < max(2.0, theirs.lost_percent + 1), (ours, theirs)
    # Received throughput: never beyond the shaping; the two servers within 15 %.
    for ours, theirs in (over, under):
        assert ours.mbps <= limit * 1.05 and theirs.mbps <= limit * 1.05
        assert ours.mbps == pytest.approx(theirs.mbps, rel=0.15)
    # Jitter of the same order (a queue full of datagrams makes it larger when over).
    # Pi -> PC: the endpoint computes it (RFC 1889), so a formula or units bug (x16, x1000)
    # shows against the C server's. PC -> Pi: the Pi's iperf3 computes it from our sending,
    # so it is our thread's timing on this PC: on a busy machine a stall of a few ms (the
    # GIL's switch interval is 5 ms) releases a burst that the shaping queues, 0.28 ms
    # against the C server's 0.016 ms once at load ~4. Still far below what a user sees.
    slack = 1.0 if reverse else 0.1
    for ours, theirs in (over, under):
        assert ours.jitter_ms is not None and theirs.jitter_ms is not None
        assert ours.jitter_ms < 5 * theirs.jitter_ms + slack, (ours, theirs)
        assert theirs.jitter_ms < 5 * ours.jitter_ms + 0.1, (ours, theirs)
