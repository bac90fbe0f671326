"""The PC's latency responder answers only probes with the run's token, and our probe program
(run here with this Python, over loopback only) measures round trips through it."""

from __future__ import annotations

import asyncio
import socket
import sys

from sbctune.measure.latency.parse import parse
from sbctune.measure.latency.program import ProbeConfig, new_token, program
from sbctune.measure.latency.responder import Responder, is_probe


async def _ask(port: int, data: bytes, wait: float = 0.3) -> bytes | None:
    """Send one datagram to the responder on loopback; its answer, or None."""
    loop = asyncio.get_running_loop()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setblocking(False)
        sock.connect(("127.0.0.1", port))
        sock.send(data)
        try:
            return await asyncio.wait_for(loop.sock_recv(sock, 1024), wait)
        except asyncio.TimeoutError:
            return None


async def test_only_probes_with_the_token_get_an_answer() -> None:
    token = new_token()
    other = new_token()
    async with Responder("127.0.0.1", token) as responder:
        good = b"SBCTL1 " + token.encode() + b" 7 ....."
        assert await _ask(responder.port, good) == good
        assert await _ask(responder.port, b"SBCTL1 " + other.encode() + b" 7 .....") is None
        assert await _ask(responder.port, b"SBCTL1 " + token.encode() + b" x") is None
        assert await _ask(responder.port, good.ljust(300, b".")) is None  # too big
        assert await _ask(responder.port, b"hello") is None
        assert (responder.answered, responder.ignored) == (1, 4)


def test_is_probe_needs_magic_token_and_number() -> None:
    token = b"ab" * 16
    assert is_probe(b"SBCTL1 " + token + b" 12 ...", token)
    assert not is_probe(b"SBCTL2 " + token + b" 12 ...", token)
    assert not is_probe(b"SBCTL1 " + token[:-1] + b" 12", token)
    assert not is_probe(b"SBCTL1 " + token, token)


async def test_the_probe_program_measures_round_trips_through_the_responder() -> None:
    token = new_token()
    async with Responder("127.0.0.1", token) as responder:
        config = ProbeConfig("127.0.0.1", responder.port, token, seconds=3.0, interval=0.05)
        text = program(ProbeConfig(**{**vars(config), "timeout": 0.5}))
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        out, _ = await asyncio.wait_for(proc.communicate(text), 15)
    probes, warnings = parse(out.decode())
    assert warnings == []
    answered = [p for p in probes if p.rtt_ms is not None]
    assert len(answered) >= 0.8 * config.count  # loopback: nearly all of ~61
    assert len(probes) <= config.count
    assert all(0 <= (p.rtt_ms or 0) < 500 for p in answered)


async def test_the_probe_counts_probes_nobody_answers_as_lost() -> None:
    # A port with no responder on loopback: every probe is lost, none crashes the program.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]  # bound but never read: no answer, no ICMP error
        config = ProbeConfig("127.0.0.1", port, new_token(), seconds=1.0, interval=0.1,
                             timeout=0.2)  # fmt: skip
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        out, _ = await asyncio.wait_for(proc.communicate(program(config)), 15)
    probes, _ = parse(out.decode())
    assert probes and all(p.rtt_ms is None for p in probes)
