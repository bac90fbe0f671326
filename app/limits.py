"""Size limits for everything read from a Pi or a bundle (README: "Limits").

A Pi may be compromised and a bundle crafted: a 1 GiB dmesg, a zip bomb or a manifest nested
200 000 deep must end in a clear warning or error, never in a crash or a swap storm. Real
outputs are far below these figures (a Pi's whole dmesg ring buffer is a few hundred KB; a
bundle's manifest a few KB), so a limit only ever bites on something that is not a real capture.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sbctune.errors import UserError

MiB = 1024 * 1024

MAX_OUTPUT_BYTES = 16 * MiB
"""One command output or file: read over SSH, or one member of a bundle."""
MAX_BATCH_BYTES = 64 * MiB
"""Everything one SSH round trip returns (a batch of reads)."""
MAX_BUNDLE_BYTES = 64 * MiB
"""All outputs of one bundle together, as read."""
MAX_ZIP_MEMBERS = 2000
MAX_ZIP_UNCOMPRESSED = 256 * MiB
"""The total uncompressed size a bundle's zip declares."""
MAX_ZIP_RATIO = 100
"""Uncompressed : compressed for one zip member over 1 MiB (text compresses 5-20 times)."""
ZIP_RATIO_FLOOR = MiB
MAX_MANIFEST_BYTES = 1 * MiB
MAX_JSON_DEPTH = 32
MAX_IRQ_LINES = 8192
"""Interrupt lines read from /proc/interrupts. A Pi has about 60, a large server a few
thousand; 16 MiB of short lines would be 350 000 IRQs (and as many NICs named in them)."""
MAX_INTERFACES = 4096
"""Interfaces read from one `ip -j` listing (a container host may have thousands)."""
MAX_PROBED_INTERFACES = 32
"""Interfaces a live inspect asks ethtool about (6 commands each). A Pi has a handful; a
container host may have thousands of veths, whose 15 000 commands would outlast the round
trip's timeout and lose everything read."""

# Logs grow at the end, and the end is what explains a problem: these keep their last part.
_TAIL_COMMANDS = re.compile(r"^\s*(sudo\s+)?(dmesg|journalctl|logread)\b")


class LimitError(UserError):
    """An input larger or deeper than sbctune reads (the message names it and the limit)."""


def size_text(size: int) -> str:
    if size >= 1024 * MiB:
        return f"{size / (1024 * MiB):.1f} GiB"
    if size >= MiB:
        return f"{size / MiB:.1f} MiB"
    return f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} bytes"


def keeps_tail(name: str) -> bool:
    """True for outputs whose last part matters (dmesg and other logs)."""
    return bool(_TAIL_COMMANDS.match(name))


@dataclass(frozen=True)
class Capped:
    """Bytes read under a limit: ``truncated`` says a part was left out (see ``warning``)."""

    data: bytes
    truncated: bool = False
    size: int | None = None
    """The full size when known."""

    def warning(self, name: str, limit: int = MAX_OUTPUT_BYTES) -> str:
        full = f" of {size_text(self.size)}" if self.size is not None else ""
        kept = "last" if keeps_tail(name) else "first"
        return (
            f"{name}: the output{full} is larger than the {size_text(limit)} sbctune reads;"
            f" only its {kept} {size_text(len(self.data))} were used"
        )


class TailBuffer:
    """Keeps the last ``limit`` bytes of a stream in at most twice that much memory."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen = 0
        self._buf = bytearray()

    def add(self, chunk: bytes) -> None:
        self.seen += len(chunk)
        self._buf += chunk
        if len(self._buf) > 2 * self.limit:
            del self._buf[: len(self._buf) - self.limit]

    def result(self) -> Capped:
        data = bytes(self._buf[-self.limit :]) if self.limit else b""
        return Capped(data, self.seen > self.limit, self.seen)


def cap(data: bytes, name: str, limit: int = MAX_OUTPUT_BYTES) -> Capped:
    """``data`` cut to ``limit``: its last part for a log, its first part otherwise."""
    if len(data) <= limit:
        return Capped(data, False, len(data))
    kept = data[-limit:] if keeps_tail(name) else data[:limit]
    return Capped(kept, True, len(data))


# A string literal, its closing quote optional: an unclosed string ends the text, so every
# match runs forward and none is retried from a later quote (a closing quote required made a
# 1 MiB string of escaped quotes take hours: a new attempt from every quote).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?$)', re.S)
_BRACKET = re.compile(rb"[][{}]")


def json_depth(data: bytes) -> int:
    """How deeply arrays and objects nest in the JSON text ``data`` (strings ignored)."""
    depth = deepest = 0
    for found in _BRACKET.finditer(_JSON_STRING.sub(b"", data)):
        if found.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def load_json(
    data: bytes, what: str, *, max_bytes: int = MAX_MANIFEST_BYTES, size: int | None = None
) -> Any:
    """Parse untrusted JSON: a size and a nesting limit first, then ``json.loads``.

    ``size``: the full size when ``data`` was already cut. Raises LimitError for too large or
    too deep; json.JSONDecodeError for malformed text.
    """
    size = max(size or 0, len(data))
    if size > max_bytes:
        raise LimitError(
            f"{what} is {size_text(size)}, more than the {size_text(max_bytes)} sbctune reads",
            "a real one is a few KB: this file was not written by sbctune",
        )
    depth = json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise LimitError(
            f"{what} nests {depth} levels deep, more than the {MAX_JSON_DEPTH} sbctune reads",
            "a real one nests 2 levels: this file was not written by sbctune",
        )
    return json.loads(data.decode("utf-8", errors="replace"))


MAX_STORED_JSON_DEPTH = 64
"""JSON sbctune wrote itself (the history's rows, a session.json on the Pi) nests under 10."""


class JsonTooDeep(ValueError):
    """Nested deeper than sbctune reads: a ValueError, as malformed JSON is, so every reader
    that copes with a broken value copes with this one too."""


def parse_json(
    text: str | bytes, what: str = "JSON read from the Pi", *, max_bytes: int = MAX_BATCH_BYTES,
    max_depth: int = MAX_STORED_JSON_DEPTH,
) -> Any:  # fmt: skip
    """``json.loads`` for JSON from a Pi or the history: too large or too deep is a ValueError
    naming `what` (json.loads itself dies with RecursionError some 1000 levels down)."""
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else text
    if len(data) > max_bytes:
        raise JsonTooDeep(f"{what} is {size_text(len(data))}, more than sbctune reads")
    depth = json_depth(data)
    if depth > max_depth:
        raise JsonTooDeep(f"{what} nests {depth} levels deep, more than the {max_depth} read")
    try:
        return json.loads(data.decode("utf-8", errors="replace"))
    except RecursionError:  # a depth the check above did not see (it skips string contents)
        raise JsonTooDeep(f"{what} nests too deeply to read") from None
