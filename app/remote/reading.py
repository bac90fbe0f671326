"""Reading what a command on the Pi streams, in bounded memory.

asyncssh's `readline()` keeps reading until a newline and `read()` until the end: a Pi that
sends one endless line, or endless stderr, would fill this PC's memory. Here every line is at
most `MAX_LINE_BYTES` (a longer one keeps its start, is marked, and the rest of it is read and
dropped) and stderr keeps its first `MAX_OUTPUT_BYTES`.
"""

from __future__ import annotations

from typing import Protocol

from sbctune.limits import MAX_OUTPUT_BYTES

MAX_LINE_BYTES = 1024 * 1024  # a line of iperf3's --json-stream is a few kB; dmesg's < 1 kB
CUT_MARK = b" [... line cut by sbctune: over 1 MiB]"
_CHUNK = 64 * 1024


class ByteStream(Protocol):
    async def read(self, n: int = -1) -> bytes: ...


class LineReader:
    """Lines of a byte stream, each at most `max_line` bytes plus the cut mark."""

    def __init__(self, stream: ByteStream, max_line: int = MAX_LINE_BYTES) -> None:
        self._stream = stream
        self._buf = bytearray()
        self._eof = False
        self.max_line = max_line
        self.cut_lines = 0

    def take_buffered(self) -> bytes:
        """What was read from the stream but not yet returned (for a reader that goes on)."""
        rest = bytes(self._buf)
        self._buf.clear()
        return rest

    async def readline(self) -> bytes:
        """The next line with its newline; b"" at the end of the stream."""
        kept: bytes | None = None  # the start of an over-long line, once it was cut
        while True:
            end = self._buf.find(b"\n")
            if end >= 0:
                line = bytes(self._buf[: end + 1])
                del self._buf[: end + 1]
                return line if kept is None else kept + CUT_MARK + b"\n"
            if kept is None and len(self._buf) > self.max_line:
                kept = bytes(self._buf[: self.max_line])
                self.cut_lines += 1
            if kept is not None:
                self._buf.clear()  # the rest of the long line is read, not kept
            if self._eof:
                rest = bytes(self._buf)
                self._buf.clear()
                return rest if kept is None else kept + CUT_MARK
            chunk = await self._stream.read(_CHUNK)
            if chunk:
                self._buf += chunk
            else:
                self._eof = True


async def read_at_most(stream: ByteStream, limit: int = MAX_OUTPUT_BYTES) -> bytes:
    """The stream to its end, keeping its first `limit` bytes (the rest is read and dropped,
    so the command is not blocked on a full channel)."""
    kept = bytearray()
    while chunk := await stream.read(_CHUNK):
        room = limit - len(kept)
        if room > 0:
            kept += chunk[:room]
    return bytes(kept)
