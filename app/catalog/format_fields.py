"""A printf format taken from a program's source, as the regex that reads the lines it prints
with each conversion a named field, and its longest literal word (the substring test that
comes before the regex). The old kernels' formats (old_formats.py) and the network daemons'
(inventory/parsers/daemon_lines.py) are read this way; what differs is theirs to say: what a
conversion may print, how a literal is matched, and how the whole is anchored. Formats are
constants from the shipped tables; no text from a Pi is made a regex."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

SPEC_RE = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.\d+)?(?:hh|h|ll|l|z)?([a-zA-Z%])")


def format_fields(
    fmt: str,
    fields: Iterable[str],
    conversion: Callable[[re.Match[str]], str],
    literal: Callable[[str], str] = re.escape,
) -> tuple[str, str]:
    """The regex source of `fmt` (unanchored): its literals through `literal`, its conversions
    (each spec's match, its letter group 1) through `conversion` as named groups, named by
    `fields` in order; and the longest word of its literals."""
    out: list[str] = []
    literals: list[str] = []
    pos = 0
    names = iter(fields)
    for m in SPEC_RE.finditer(fmt):
        literals.append(fmt[pos : m.start()])
        out.append(literal(fmt[pos : m.start()]))
        out.append(f"(?P<{next(names)}>{conversion(m)})")
        pos = m.end()
    literals.append(fmt[pos:])
    out.append(literal(fmt[pos:]))
    needle = max((w for lit in literals for w in lit.split(" ")), key=len)
    return "".join(out), needle
