"""The one boundary for text that came from a Pi or a bundle: nothing of it acts on a terminal.

A Pi may be compromised and a forum bundle crafted: a USB product name or a dmesg line may
carry ``ESC]0;…BEL`` (retitles the window), ``ESC[2J`` (clears the screen), ``ESC]8;;URL``
(a disguised link), C1 controls (``\\x9b`` is CSI on some terminals) or bidirectional
overrides that make text read differently from what it is. :func:`visible` turns each of
them into a ``\\uXXXX`` escape: readable, and valid inside a JSON string, so ``--json`` output
stays valid whatever it passes through. Tab and newline stay as they are.

The command line installs :func:`guard_terminal` around every command, so every line printed
to stdout or stderr passes here once, whoever printed it; exporters escape for their own
format (Markdown: :func:`markdown_text`; CSV and HTML in their modules).
"""

from __future__ import annotations

import contextlib
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, cast

# Decided by Unicode category, not by a hand list, so every invisible or reordering code
# point is caught, including ones a list would miss (soft hyphen U+00AD, U+180E, the tag
# characters U+E0020-E007F that smuggle hidden ASCII, U+13430-8): controls (Cc), formatting
# characters (Cf: zero-width, bidi overrides and isolates, the byte-order mark), line and
# paragraph separators (Zl, Zp), surrogates (Cs), private use (Co) and code points this
# Python's Unicode does not know (Cn: a terminal cannot know what they do either).
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_KEPT = frozenset("\t\n")
# Above this many distinct code points seen, new ones are decided but not remembered: the
# table stays a few MB whatever text arrives.
_TABLE_MAX = 1 << 16


def _escape(code: int) -> str:
    """``\\uXXXX``, or a surrogate pair of them above U+FFFF: the form a JSON string uses."""
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def is_unsafe_char(char: str) -> bool:
    """True for a character that acts on a terminal or hides or reorders text."""
    if char in _KEPT:
        return False
    if unicodedata.category(char) in _UNSAFE_CATEGORIES:
        return True
    # Letters and marks that draw nothing (the Hangul fillers; the variation selectors 17-256
    # that hide bytes after a character): found by their Unicode names, not by code point.
    name = unicodedata.name(char, "")
    if name.startswith("VARIATION SELECTOR-"):
        return int(name.rsplit("-", 1)[1]) > 16  # 1-16 shape emoji and CJK text
    return "FILLER" in name


class _EscapeTable(dict[int, int | str]):
    """The ``str.translate`` table, filled per code point on first sight: a scan of all
    1.1 million code points at import would cost every command a tenth of a second."""

    def __missing__(self, code: int) -> int | str:
        value: int | str = _escape(code) if is_unsafe_char(chr(code)) else code
        if len(self) < _TABLE_MAX:
            self[code] = value
        return value


# str.translate runs in C: 16 MiB of control characters are escaped in about a second
# (re.sub with a Python callback took tens of seconds).
_TABLE = _EscapeTable()


def visible(text: str) -> str:
    """``text`` with every control or formatting character shown as ``\\uXXXX``."""
    if "\r\n" in text:  # a Windows line end is a line end, not an attack
        text = text.replace("\r\n", "\n")
    return text.translate(_TABLE)


def is_clean(text: str) -> bool:
    """True when :func:`visible` would leave ``text`` unchanged."""
    return visible(text) == text


class _VisibleStream:
    """A text stream that writes through :func:`visible`; everything else is the stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    @property
    def wrapped(self) -> TextIO:
        return self._stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text))
        return len(text)  # what the caller gave: print() and friends count their own text

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def safe_stream(stream: TextIO) -> TextIO:
    """``stream`` behind the guard (once: a guarded stream is returned as it is)."""
    if isinstance(stream, _VisibleStream):
        return cast(TextIO, stream)
    return cast(TextIO, _VisibleStream(stream))


@contextlib.contextmanager
def guard_terminal() -> Iterator[None]:
    """While inside, whatever is printed to stdout and stderr is made visible first."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None:
        sys.stdout = safe_stream(sys.stdout)
    if sys.stderr is not None:
        sys.stderr = safe_stream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


# Markdown: characters that start HTML (`<`, `&`) become entities, so a CommonMark viewer
# never renders a tag from a Pi; characters that are inline Markdown syntax get a backslash,
# so a name cannot open a link, an image, emphasis, code, a strike-through or a table cell;
# a block marker at the start (heading, list, quote) is escaped too.
_MD_INLINE = re.compile(r"([\\`*_\[\]|~])")
_MD_BLOCK_START = re.compile(r"^(\s*(?:\d+)?)([#+\-=.)])")


def markdown_text(text: object, *, line_start: bool = False) -> str:
    """``text`` as literal Markdown on one line: shown as it is, never markup, never a
    control character (a table cell or a heading is one line, so line breaks become spaces).
    ``line_start``: the text begins a line, so a heading or list marker is escaped too.
    """
    plain = " ".join(visible(str(text)).splitlines())
    plain = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    plain = _MD_INLINE.sub(r"\\\1", plain)
    if not line_start:
        return plain
    return _MD_BLOCK_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", plain)


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(text: object) -> str:
    """``text`` for a CSV cell a spreadsheet opens: a leading ``= + - @`` (or tab/CR) on
    anything but a number is guarded with an apostrophe, so it is never run as a formula.
    """
    value = visible(str(text))
    if value[:1] in ("=", "+", "-", "@", "\t", "\r") and not _NUMBER.fullmatch(value):
        return "'" + value
    return value
