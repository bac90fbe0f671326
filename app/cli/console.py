"""Output that never dies of the console's encoding.

A Windows console gets Unicode through the console API, but `sbctune inspect > out.txt`, a
pipe, or an old code page gives Python a cp1252 (or ASCII, cp437 ...) stream, which cannot
hold "→" and used to end the command with a UnicodeEncodeError. CPython on Windows opens such
a redirect with ``errors="surrogateescape"``, which only covers lone surrogates, so every
stream gets the handler whatever its ``errors`` were. The CLI's own symbols get readable
stand-ins; any other character a stream cannot hold (a lone surrogate too: never raw bytes
from a Pi on a terminal) becomes "?".
"""

from __future__ import annotations

import codecs
import contextlib
import io
import sys

HANDLER = "sbctune-console"
STAND_INS = {
    "→": "->", "←": "<-", "↺": "(again)", "…": "...", "—": "-", "–": "-", "±": "+/-",
    "°": " deg", "✓": "ok", "✔": "ok", "✗": "x", "×": "x", "≥": ">=", "≤": "<=", "µ": "u",
    "•": "*", "’": "'", "‘": "'", "“": '"', "”": '"',
}  # fmt: skip


def _stand_in(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    encoding = error.encoding or "ascii"
    out = []
    for char in bad:
        text = STAND_INS.get(char, "?")
        try:
            text.encode(encoding)
        except (UnicodeEncodeError, LookupError):
            text = "?"
        out.append(text)
    return "".join(out), error.end


codecs.register_error(HANDLER, _stand_in)


def make_console_safe() -> None:
    """stdout and stderr write stand-ins instead of raising on characters they cannot hold.

    Any encoding and any ``errors`` ("strict", Windows' "surrogateescape", stderr's
    "backslashreplace") get the handler; a missing stream (a windowed exe has none) is left.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors != HANDLER:
            with contextlib.suppress(ValueError, OSError):  # a closed or detached stream
                stream.reconfigure(errors=HANDLER)
