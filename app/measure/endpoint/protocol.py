"""iperf3's control protocol: state codes, error codes, framing and the test parameters.

The wire format (esnet/iperf ``iperf_api.c``, ``iperf_server_api.c``, ``iperf_tcp.c``):

* Every connection, control or data, opens with the client's 37-byte cookie (36 characters and
  a NUL).
* A state is one signed byte. ``SERVER_ERROR`` is followed by two 4-byte big-endian integers:
  iperf3's ``i_errno`` and the C ``errno``; the client prints its own text for ``i_errno``.
* A JSON message is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal

from sbctune.limits import parse_json

COOKIE_SIZE = 37
DEFAULT_TCP_BLKSIZE = 128 * 1024
MAX_BLKSIZE = 1024 * 1024
#: iperf3's MAX_UDP_BLOCKSIZE: 65535 less the IPv4 and UDP headers.
MAX_UDP_BLKSIZE = 65535 - 20 - 8
MAX_STREAMS = 128
#: The largest JSON message we accept (iperf3 caps parameters at 8 KiB; results of 256 streams
#: are a few tens of KiB).
MAX_JSON_SIZE = 1024 * 1024


class State(IntEnum):
    """The control channel's one-byte states (``iperf_api.h``)."""

    TEST_START = 1
    TEST_RUNNING = 2
    TEST_END = 4
    PARAM_EXCHANGE = 9
    CREATE_STREAMS = 10
    SERVER_TERMINATE = 11
    CLIENT_TERMINATE = 12
    EXCHANGE_RESULTS = 13
    DISPLAY_RESULTS = 14
    IPERF_START = 15
    IPERF_DONE = 16
    ACCESS_DENIED = -1
    SERVER_ERROR = -2


class IperfErrno(IntEnum):
    """The subset of iperf3's ``i_errno`` codes the endpoint sends with ``SERVER_ERROR``.

    The client prints its own message for the code, e.g. ``IEUNIMP`` -> "an option you are
    trying to set is not implemented yet".
    """

    IENUMSTREAMS = 6
    IEBLOCKSIZE = 7
    IEUNIMP = 13
    IENOSCTP = 18
    IEUDPBLOCKSIZE = 20
    IERECVPARAMS = 114
    IEPROTOCOL = 131


Mode = Literal["forward", "reverse", "bidir"]


class ProtocolError(Exception):
    """The peer broke the protocol (closed early, sent garbage, timed out)."""


class ControlClosed(ProtocolError):
    """The control connection closed before the expected message arrived."""


class Rejected(Exception):
    """The client asked for a test the endpoint does not run; carries iperf3's error code."""

    def __init__(self, code: IperfErrno, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


async def recv_exactly(sock: socket.socket, size: int) -> bytes:
    """Read exactly ``size`` bytes from a non-blocking socket; raise ``ControlClosed`` at EOF."""
    loop = asyncio.get_running_loop()
    chunks: list[bytes] = []
    need = size
    while need:
        chunk = await loop.sock_recv(sock, need)
        if not chunk:
            raise ControlClosed(f"connection closed after {size - need} of {size} bytes")
        chunks.append(chunk)
        need -= len(chunk)
    return b"".join(chunks)


def encode_state(state: State) -> bytes:
    return struct.pack("!b", int(state))


def encode_json(obj: dict[str, Any]) -> bytes:
    body = json.dumps(obj, separators=(",", ":")).encode()
    return struct.pack("!I", len(body)) + body


def encode_server_error(code: IperfErrno, os_errno: int = 0) -> bytes:
    return encode_state(State.SERVER_ERROR) + struct.pack("!ii", int(code), os_errno)


class ControlChannel:
    """The client's control connection, read and written with the running event loop."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    async def send(self, data: bytes) -> None:
        await asyncio.get_running_loop().sock_sendall(self.sock, data)

    async def send_state(self, state: State) -> None:
        await self.send(encode_state(state))

    async def send_json(self, obj: dict[str, Any]) -> None:
        await self.send(encode_json(obj))

    async def recv_state(self) -> int:
        """The next state byte (signed); ``ControlClosed`` when the client closed."""
        raw = await recv_exactly(self.sock, 1)
        value: int = struct.unpack("!b", raw)[0]
        return value

    async def recv_json(self) -> dict[str, Any]:
        (size,) = struct.unpack("!I", await recv_exactly(self.sock, 4))
        if size == 0 or size > MAX_JSON_SIZE:
            raise ProtocolError(f"JSON message of {size} bytes")
        body = await recv_exactly(self.sock, size)
        try:  # depth-limited: 100 000 nested arrays would make json.loads raise RecursionError
            obj = parse_json(body, "the client's JSON", max_bytes=MAX_JSON_SIZE)
        except ValueError as exc:
            raise ProtocolError(f"bad JSON from client: {exc}") from exc
        if not isinstance(obj, dict):
            raise ProtocolError("JSON message is not an object")
        return obj


_MAX_PARAM = 2**63  # iperf3 sends these as C integers (int, uint64_t at most)


def _int(raw: dict[str, Any], key: str, default: int = 0) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        # NaN, Infinity (Python's json reads them) or a 400-digit number: no iperf3 sends it.
        if not math.isfinite(value) or abs(value) >= _MAX_PARAM:
            raise ProtocolError(f"parameter {key!r} is not a number iperf3 sends")
        return int(value)
    return default


def _str(raw: dict[str, Any], key: str) -> str | None:
    value = raw.get(key)
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class TestParams:
    """What the client asked for in ``PARAM_EXCHANGE`` (``send_parameters`` in iperf_api.c)."""

    __test__ = False  # not a pytest test class

    protocol: Literal["tcp", "udp", "sctp"] = "tcp"
    mode: Mode = "forward"
    parallel: int = 1
    duration: int = 10
    omit: int = 0
    bytes_limit: int = 0
    blocks_limit: int = 0
    blksize: int = DEFAULT_TCP_BLKSIZE
    rate: int = 0
    fqrate: int = 0
    pacing_timer_us: int = 1000
    burst: int = 0
    window: int = 0
    mss: int = 0
    nodelay: bool = False
    tos: int = 0
    congestion: str | None = None
    get_server_output: bool = False
    repeating_payload: bool = False
    zerocopy: bool = False
    title: str | None = None
    extra_data: str | None = None
    client_version: str | None = None
    udp_counters_64bit: bool = False

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> TestParams:
        protocol: Literal["tcp", "udp", "sctp"] = "tcp"
        if "udp" in raw:
            protocol = "udp"
        elif "sctp" in raw:
            protocol = "sctp"
        mode: Mode = "forward"
        if "bidirectional" in raw:
            mode = "bidir"
        elif "reverse" in raw:
            mode = "reverse"
        return cls(
            protocol=protocol,
            mode=mode,
            parallel=_int(raw, "parallel", 1),
            duration=_int(raw, "time", 10),
            omit=_int(raw, "omit"),
            bytes_limit=_int(raw, "num"),
            blocks_limit=_int(raw, "blockcount"),
            blksize=_int(raw, "len", DEFAULT_TCP_BLKSIZE) or DEFAULT_TCP_BLKSIZE,
            rate=_int(raw, "bandwidth"),
            fqrate=_int(raw, "fqrate"),
            pacing_timer_us=_int(raw, "pacing_timer", 1000) or 1000,
            burst=_int(raw, "burst"),
            window=_int(raw, "window"),
            mss=_int(raw, "MSS"),
            nodelay="nodelay" in raw,
            tos=_int(raw, "TOS"),
            congestion=_str(raw, "congestion"),
            get_server_output=bool(_int(raw, "get_server_output")),
            repeating_payload="repeating_payload" in raw,
            zerocopy=bool(_int(raw, "zerocopy")),
            title=_str(raw, "title"),
            extra_data=_str(raw, "extra_data"),
            client_version=_str(raw, "client_version"),
            udp_counters_64bit="udp_counters_64bit" in raw,
        )

    def check_supported(self) -> None:
        """Raise ``Rejected`` (with the code the client understands) for tests we do not run."""
        if self.protocol == "sctp":
            raise Rejected(IperfErrno.IENOSCTP, "SCTP tests are not supported (TCP and UDP only)")
        if not 1 <= self.parallel <= MAX_STREAMS:
            raise Rejected(IperfErrno.IENUMSTREAMS, f"{self.parallel} parallel streams")
        if not 1 <= self.blksize <= MAX_BLKSIZE:
            raise Rejected(IperfErrno.IEBLOCKSIZE, f"block size {self.blksize}")
        if self.protocol == "udp" and not 16 <= self.blksize <= MAX_UDP_BLKSIZE:
            # iperf3's own limits: the 16-byte header at least, one IPv4 datagram at most.
            raise Rejected(IperfErrno.IEUDPBLOCKSIZE, f"UDP datagram size {self.blksize}")

    @property
    def receives(self) -> int:
        """How many streams the endpoint receives on."""
        return self.parallel if self.mode in ("forward", "bidir") else 0

    @property
    def sends(self) -> int:
        """How many streams the endpoint sends on."""
        return self.parallel if self.mode in ("reverse", "bidir") else 0

    @property
    def total_streams(self) -> int:
        return self.receives + self.sends


def stream_ids(count: int) -> list[int]:
    """iperf3's stream ids in creation order: 1, then 3, 4, 5 ... (``iperf_add_stream``)."""
    return [1 if i == 0 else i + 2 for i in range(count)]
