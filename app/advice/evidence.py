"""Evidence: the raw output lines a finding rests on, quoted as the user's Pi printed them."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate

from sbctune.catalog import Catalog

QUOTE_CHARS = 300
"""A quoted line is cut here: a real one is shorter; a hostile one must not fill the screen."""


def quote(line: str) -> str:
    line = line.rstrip()
    if len(line) <= QUOTE_CHARS:
        return line
    return f"{line[:QUOTE_CHARS]}… ({len(line) - QUOTE_CHARS} more characters)"


def lines_with(text: str, needle: str, limit: int = 3) -> list[str]:
    """Lines containing ``needle`` as plain text (for needles built from a Pi's outputs, which
    are never made into a regex)."""
    if limit < 1:
        return [line.rstrip() for line in text.splitlines() if needle in line][:limit]
    found = []
    for line in _lines_from(text, lambda pos: text.find(needle, pos)):
        if needle in line:
            found.append(line.rstrip())
            if len(found) >= limit:
                break
    return found


# What makes a match depend on where a line starts or ends (anchors, word boundaries,
# lookarounds, inline flags, conditionals: any "(?" but a plain or named group and a named
# backreference, which match the same text wherever it stands): such a pattern is tried
# line by line only.
_CONTEXT = re.compile(r"\^|\$|\\[AZzbB]|\(\?(?!:|P<|P=)")


def needs_line_edges(pattern: str) -> bool:
    """Whether a match of `pattern` may depend on the text around it (so it is tried on each
    line alone), read from its text: true for anything that might, however escaped."""
    return _CONTEXT.search(pattern) is not None


def lines_matching(text: str, pattern: str, limit: int = 3, needle: str = "") -> list[str]:
    """The first `limit` lines `pattern` matches. `needle`, plain text every match holds (the
    pattern's own literal words): only the lines holding it are tried, found by str.find (a
    pattern that opens with an alternation or a class is tried at every place of the text)."""
    regex = re.compile(pattern)
    if needle:
        lines: Iterable[str] = _lines_from(text, lambda pos: text.find(needle, pos))
    elif needs_line_edges(pattern):
        lines = text.splitlines()
    else:
        # A pattern that needs no line edges matches a line only where it matches the text
        # that holds the line: only the lines where the text's next match starts are tried.
        def next_match(pos: int) -> int:
            found = regex.search(text, pos)
            return -1 if found is None else found.start()

        lines = _lines_from(text, next_match)
    found = []
    for line in lines:
        if regex.search(line):
            found.append(quote(line))
            if len(found) >= limit:
                break
    return found


# Where str.splitlines() cuts a line besides "\n" ("\r\n" and "\r" among them).
_OTHER_ENDS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# The last text split into lines at every line end (its lines with their ends, and where each
# ends in the text): made only for a text where a line found has another end than "\n".
_split: tuple[str, list[str], list[int]] = ("", [], [])


def _lines_from(text: str, next_at: Callable[[int], int]) -> Iterator[str]:
    """The lines of `text` as str.splitlines() gives them, in order, but only those where
    `next_at(pos)` (the position of the first match at or after `pos`, or -1) falls: a line
    holding a match of a pattern that needs no line edges holds a match of the whole text
    at or after its start, so the lines skipped hold none. A line is cut around its match at
    "\n"; where it holds another line end, the text is split at all of them (once per text)."""
    global _split
    pos = 0
    while (at := next_at(pos)) >= 0 and at < len(text):
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        line = text[start : (len(text) if end < 0 else end)]
        if _OTHER_ENDS.search(line) is not None:
            break  # read by the split below, from this line's start
        yield line
        pos = len(text) if end < 0 else end + 1
    else:
        return
    known = _split
    if known[0] is not text:
        parts = text.splitlines(keepends=True)
        known = _split = (text, parts, list(accumulate(map(len, parts))))
    _text, parts, ends = known
    while (at := next_at(pos)) >= 0:
        i = bisect_right(ends, at)
        if i >= len(parts):
            return
        yield parts[i].splitlines()[0]  # the line without its end ("\r\n", "\n", ...)
        pos = ends[i]


def cite(catalog: Catalog, source_ids: list[str]) -> list[str]:
    """Source ids → 'title (url or file)' strings for a recommendation's sources."""
    cited = []
    for source_id in dict.fromkeys(source_ids):
        source = catalog.source(source_id)
        if source is None:
            continue
        # A user can follow a public page or a kernel source path; the seed write-ups are
        # public posts known here by an internal file name, so those are described in words.
        where = source.url or source.path or ""
        label = (
            source.title if where or source.kind != "seed" else f"{source.title} (public write-up)"
        )
        cited.append(f"{label}{f' — {where}' if where else ''}")
    return cited
