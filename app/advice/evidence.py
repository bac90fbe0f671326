"""Evidence: the raw output lines a finding rests on, quoted as the user's Pi printed them."""

from __future__ import annotations

import re

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
    return [line.rstrip() for line in text.splitlines() if needle in line][:limit]


# What makes a match depend on where a line starts or ends (anchors, word boundaries,
# lookarounds): such a pattern is tried line by line only.
_CONTEXT = re.compile(r"\^|\$|\\[AZbB]|\(\?")


def lines_matching(text: str, pattern: str, limit: int = 3) -> list[str]:
    regex = re.compile(pattern)
    if not _CONTEXT.search(pattern) and regex.search(text) is None:
        # A pattern that needs no line edges matches a line only where it matches the
        # text that holds the line: none here, so no line of a long log is split and tried.
        return []
    found = []
    for line in text.splitlines():
        if regex.search(line):
            found.append(quote(line))
            if len(found) >= limit:
                break
    return found


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
