"""A long log cut at its plain kernel clocks in C-level passes (parsers/dmesg.py's loop).

A 100 000-line log is mostly lines "[  12.345678] msg" whose message came before under
another clock. Cutting the text at each line start that holds such a clock lets the loop
answer such a line from a memo keyed by what follows the clock, as one dict hit, and read
every other line (the first of a message, another wrapper, a line the clock's pattern does
not take) one by one as before (issue 24, speed: work per distinct message, not per line).

Where every line that starts with "[" starts with a plain clock (the kernel's own dmesg), the
cut is ``str.split("\\n[")`` and a ``str.partition("] ")`` of each piece, checked by one
regex over the clocks joined: ~2 000 instructions a line on a text kept at four bytes a
character, against ~2 900 for ``re.split`` by the clock's pattern, which any other log gets.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice, repeat
from operator import itemgetter

from .lazy_pattern import later

# A plain clock at a line's start: "[", spaces, the seconds in ASCII digits, "] ". The
# seconds' group keeps the spaces before them (float() reads " 12.5" as 12.5), so that
# "[" + clock + "] " + chunk is the line again. A clock of any other shape ("@<cpu>]", a
# tab, a caller id right after "]" is part of the chunk then) is not cut at: its line stays
# in the chunk before it, which the loop reads line by line.
_PLAIN_CLOCK_RE = later(r"\n\[( *[0-9]+\.[0-9]+)\] ")
# ... every clock of a text cut at each "\n[" (one a line, joined by "\n")
_PLAIN_CLOCKS_RE = later(r" *[0-9]+\.[0-9]+(?:\n *[0-9]+\.[0-9]+)*")
# how far the text is looked at for such a clock before it is cut (a log of another
# wrapper, syslog's or a journal's, is not scanned whole for nothing)
_SNIFF = 8192
_SEP = "] "
_CLOCK, _CUT = itemgetter(0), itemgetter(1)

# (clock, "] ", what follows on the line and the lines after it up to the next cut)
Chunk = tuple[str, str, str]


def clock_chunks(text: str) -> tuple[str, Iterable[Chunk]]:
    """The text before the first cut, and each cut's chunk: the text cut before each line
    (but the first) that starts with a plain clock; ``lead`` and ``"\\n[" + clock + "] " +
    chunk`` for each chunk, in order, are the text again, so each chunk's lines are the
    text's lines, in order. No chunk when the text's start shows no such clock or a carriage
    return (a CRLF paste's lines end in one: its chunks would never be a message read
    before)."""
    head = text[:_SNIFF]
    if "\r" in head or ("\n[" not in head and not head.startswith("[")):
        return text, ()
    # the start's lines that begin with "[" (up to the last one there, whole) all begin with
    # a plain clock: the whole text is tried so (a log's clocks are of one shape)
    last = head.rfind("\n[")
    if (
        _cut_at_every_bracket(head[:last] if last > 0 else head) is not None
        and (whole := _cut_at_every_bracket(text)) is not None
    ):
        return whole
    parts = _PLAIN_CLOCK_RE.split(text)
    return parts[0], zip(parts[1::2], repeat(_SEP), parts[2::2], strict=False)


def _cut_at_every_bracket(text: str) -> tuple[str, list[Chunk]] | None:
    """The text cut before every line (but the first) that starts with "[", when each of
    them starts with a plain clock; else None."""
    pieces = text.split("\n[")
    chunks = list(map(str.partition, islice(pieces, 1, None), repeat(_SEP)))
    if not chunks or not all(map(_CUT, chunks)):
        return None
    clocks = "\n".join(map(_CLOCK, chunks))
    # one clock a chunk: a clock holding a line break (" 1.0\n 2.0") is no clock
    if clocks.count("\n") != len(chunks) - 1 or _PLAIN_CLOCKS_RE.fullmatch(clocks) is None:
        return None
    return pieces[0], chunks
