"""Output that never dies of the console's encoding.

A Windows console gets Unicode through the console API, but `sbctune inspect > out.txt`, a
pipe, or an old code page gives Python a cp1252 (or ASCII) stream, which cannot hold "→" and
used to end the command with a UnicodeEncodeError. The CLI's own symbols get readable
stand-ins; any other character a stream cannot hold becomes "?".
"""

from __future__ import annotations

import codecs
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
    """stdout and stderr write stand-ins instead of raising on characters they cannot hold."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors=HANDLER)
