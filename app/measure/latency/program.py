"""The Pi-side probe: our own program (resources/measure/latency_probe.py) sent to
`python3 -` on stdin, with one `CONFIG = {...}` line prepended from validated values."""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from functools import cache

from sbctune.resources import resource_root

MAGIC = b"SBCTL1"
TOKEN_HEX = 32  # 128 random bits: a stranger cannot guess it, so the responder cannot be abused
MAX_DATAGRAM = 256  # the probe sends 64 bytes; anything bigger is not ours
INTERVAL_S = (
    0.1  # 10 probes a second (Flent's RRUL pings every 0.2 s; twice that here, short tests)
)
TIMEOUT_S = 2.0  # a probe unanswered after this counts lost (a bloated queue can hold ~1 s)
MAX_PROBES = 20000


def new_token() -> str:
    return secrets.token_hex(TOKEN_HEX // 2)


@cache
def _source() -> str:
    text: str = (resource_root() / "measure" / "latency_probe.py").read_text(encoding="utf-8")
    return text


@dataclass(frozen=True)
class ProbeConfig:
    host: str  # this PC's address as the Pi reaches it
    port: int  # the responder's UDP port
    token: str
    seconds: float  # the probe's own time limit
    bind: str | None = None  # the Pi's address on the NIC under test
    interval: float = INTERVAL_S
    timeout: float = TIMEOUT_S

    @property
    def count(self) -> int:
        return min(MAX_PROBES, int(self.seconds / self.interval) + 1)


def program(config: ProbeConfig) -> bytes:
    """The program text for `python3 -`. Every value is checked here, so the one line we
    prepend holds only an address, numbers and hex digits."""
    host = str(ipaddress.ip_address(config.host))
    bind = str(ipaddress.ip_address(config.bind)) if config.bind else None
    if not 0 < config.port < 65536:
        raise ValueError(f"bad port {config.port}")
    if len(config.token) != TOKEN_HEX or any(c not in "0123456789abcdef" for c in config.token):
        raise ValueError("the token must be lowercase hex")
    values = {
        "host": host,
        "port": int(config.port),
        "token": config.token,
        "bind": bind,
        "interval": float(config.interval),
        "count": config.count,
        "seconds": float(config.seconds),
        "timeout": float(config.timeout),
    }
    return (f"CONFIG = {values!r}\n" + _source()).encode("utf-8")
