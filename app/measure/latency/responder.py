"""This PC's UDP echo for the Pi's latency probes (asyncio; no Qt in the core).

It binds the address the measurement endpoint uses and answers only datagrams that carry the
run's random token, so it cannot be used to reflect traffic at anyone else: a datagram without
the token, too big, or from another address family is dropped without an answer.
"""

from __future__ import annotations

import asyncio
import hmac
import socket
from typing import cast

from sbctune.measure.latency.program import MAGIC, MAX_DATAGRAM


def is_probe(data: bytes, token: bytes) -> bool:
    """A datagram of ours: `SBCTL1 <token> <seq> ...`, small."""
    if len(data) > MAX_DATAGRAM:
        return False
    parts = data.split(b" ", 3)
    return (
        len(parts) >= 3
        and parts[0] == MAGIC
        and hmac.compare_digest(parts[1], token)
        and (parts[2].isascii() and parts[2].isdigit())
    )


class _Echo(asyncio.DatagramProtocol):
    def __init__(self, token: bytes) -> None:
        self.token = token
        self.transport: asyncio.DatagramTransport | None = None
        self.answered = 0
        self.ignored = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # The selector loop's datagram transport does not subclass DatagramTransport.
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
        if self.transport is None or not is_probe(data, self.token):
            self.ignored += 1
            return
        self.answered += 1
        self.transport.sendto(data, addr)

    def error_received(self, exc: Exception) -> None:  # e.g. ICMP unreachable: nothing to do
        return


class Responder:
    """`async with Responder(address, token) as r:` then tell the Pi `r.port`."""

    def __init__(self, address: str, token: str, port: int = 0) -> None:
        self.address = address
        self.token = token.encode("ascii")
        self.requested_port = port
        self.port = 0
        self._transport: asyncio.DatagramTransport | None = None
        self._protocol: _Echo | None = None

    @property
    def answered(self) -> int:
        return self._protocol.answered if self._protocol else 0

    @property
    def ignored(self) -> int:
        return self._protocol.ignored if self._protocol else 0

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        family = socket.AF_INET6 if ":" in self.address else socket.AF_INET
        transport, protocol = await loop.create_datagram_endpoint(
            lambda: _Echo(self.token),
            local_addr=(self.address, self.requested_port),
            family=family,
        )
        self._transport, self._protocol = transport, protocol
        self.port = int(transport.get_extra_info("sockname")[1])

    def stop(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    async def __aenter__(self) -> Responder:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop()
