"""Where to connect and with which credentials: `[user@]host[:port]` plus secrets.

Secrets are held in memory only and never appear in repr(), logs or argv.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sbctune.errors import UserError

DEFAULT_PORT = 22
# Unanswered SSH keepalives before the connection counts as lost.
KEEPALIVE_COUNT = 3
DEFAULT_KEEPALIVE_S = 7.0

# DNS (RFC 1035): a name is at most 253 characters, each part between dots at most 63.
_MAX_NAME = 253
_SHOWN = 60  # characters of a rejected input quoted back to the user

_BRACKETED = re.compile(r"^\[(?P<host>[^\]]+)\](?::(?P<port>\d+))?$")


class Secret:
    """A string that refuses to show itself in repr/str, so it cannot leak into logs."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret(***)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)


@dataclass(frozen=True)
class Target:
    host: str
    port: int = DEFAULT_PORT
    user: str | None = None
    identity_files: tuple[Path, ...] = ()
    password: Secret | None = field(default=None, repr=False)
    sudo_password: Secret | None = field(default=None, repr=False)
    connect_timeout: float = 10.0
    # A link that dies silently (no RST) is noticed after about interval × (KEEPALIVE_COUNT + 1)
    # seconds of silence, instead of the kernel's TCP time-outs (minutes to hours).
    keepalive_interval: float = DEFAULT_KEEPALIVE_S

    @property
    def display(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        who = f"{self.user}@" if self.user else ""
        port = f":{self.port}" if self.port != DEFAULT_PORT else ""
        return f"{who}{host}{port}"

    def effective_sudo_password(self) -> Secret | None:
        """The sudo password, defaulting to the login password as on a stock Pi."""
        return self.sudo_password or self.password


def parse_target(text: str) -> tuple[str | None, str, int]:
    """Split `[user@]host[:port]` (IPv6 as `[addr]:port` or bare) into its parts."""
    user, host, port = split_target(text)
    return user, host, DEFAULT_PORT if port is None else port


def split_target(text: str) -> tuple[str | None, str, int | None]:
    """As parse_target, with the port None when none was typed (so the app's Port field can
    give it, while a typed `:22` still wins over that field)."""
    spec = text.strip()
    if not spec:
        raise UserError(
            "No host given.",
            "Type the Pi's name or address, e.g. raspberrypi.local or pi@192.168.1.20 "
            "(add :2222 for another SSH port).",
        )
    user: str | None = None
    if "@" in spec:
        user, _, spec = spec.rpartition("@")
        if not user:
            user = None
    port: int | None = None
    host = spec
    bracketed = _BRACKETED.match(spec)
    if bracketed:
        host = bracketed.group("host")
        if bracketed.group("port"):
            port = int(bracketed.group("port"))
    elif spec.count(":") == 1:
        host, _, port_text = spec.partition(":")
        if not (port_text.isascii() and port_text.isdigit()):
            raise UserError(
                f"“{text}” has a port that is not a number.",
                "Write the port as digits, e.g. pi@raspberrypi.local:2222",
            )
        port = int(port_text)
    if not host or any(ch.isspace() or ch in "[]/@" for ch in host):
        raise UserError(f"“{text}” is not a host name or address.", "Example: pi@192.168.1.20")
    if port is not None and not 0 < port < 65536:
        raise UserError(f"Port {port} is out of range.", "SSH normally listens on port 22.")
    _check_name(host, text)
    return user, host, port


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _check_name(host: str, text: str) -> None:
    """Refuse a name no resolver can be asked for. getaddrinfo encodes it with IDNA first and
    raises UnicodeError (not OSError) on an empty or over-long part, which no connect error
    handler expects."""
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    try:
        encoded = host.encode("idna")
    except UnicodeError:
        encoded = b""
    if not encoded or len(encoded.rstrip(b".")) > _MAX_NAME:
        raise UserError(
            f"“{_shown(text)}” is not a host name or address.",
            "A name is at most 253 characters, with at most 63 between two dots and none "
            "empty, e.g. raspberrypi.local; or type the Pi's address, e.g. 192.168.1.20.",
        )


def password_from_env(name: str) -> Secret | None:
    value = os.environ.get(name)
    return Secret(value) if value else None
