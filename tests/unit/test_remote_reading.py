"""Lines and stderr from the Pi in bounded memory (app/remote/reading.py)."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from sbctune.remote.reading import CUT_MARK, LineReader, read_at_most


class Chunks:
    """A byte stream that hands out the given chunks, then the end (b"")."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = [c for c in chunks if c]  # a real stream says b"" only at its end
        self.read_bytes = 0

    async def read(self, n: int = -1) -> bytes:
        if not self._chunks:
            return b""
        chunk = self._chunks.pop(0)
        self.read_bytes += len(chunk)
        return chunk


async def _all_lines(reader: LineReader) -> list[bytes]:
    lines = []
    while line := await reader.readline():
        lines.append(line)
    return lines


async def test_an_endless_line_is_cut_and_the_next_lines_survive() -> None:
    long = [b"x" * 100_000 for _ in range(50)]  # 5 MB without a newline
    stream = Chunks([b"first\n", *long, b"yyy\nlast\n"])
    reader = LineReader(stream, max_line=64 * 1024)
    lines = await _all_lines(reader)
    assert lines[0] == b"first\n"
    assert lines[1] == b"x" * (64 * 1024) + CUT_MARK + b"\n"
    assert lines[2] == b"last\n"
    assert reader.cut_lines == 1
    assert stream.read_bytes > 5_000_000  # read to its end, so the command is not blocked


async def test_lines_split_across_chunks_and_a_last_line_without_newline() -> None:
    reader = LineReader(Chunks([b"ab", b"c\nde", b"f\n", b"tail"]))
    assert await _all_lines(reader) == [b"abc\n", b"def\n", b"tail"]


async def test_buffered_bytes_are_handed_over() -> None:
    reader = LineReader(Chunks([b"pid: 7\nrest of the output"]))
    assert await reader.readline() == b"pid: 7\n"
    assert reader.take_buffered() == b"rest of the output"


async def test_stderr_keeps_its_start() -> None:
    stream = Chunks([b"a" * 70_000, b"b" * 70_000])
    assert await read_at_most(stream, 100_000) == b"a" * 70_000 + b"b" * 30_000
    assert stream.read_bytes == 140_000


@given(st.lists(st.binary(max_size=300), max_size=20), st.integers(1, 200))
def test_any_stream_gives_bounded_lines_that_cover_it(chunks: list[bytes], limit: int) -> None:
    reader = LineReader(Chunks(chunks), max_line=limit)
    lines = asyncio.run(_all_lines(reader))
    for line in lines:
        assert len(line) <= limit + len(CUT_MARK) + 1
    if reader.cut_lines == 0:
        assert b"".join(lines) == b"".join(chunks)
