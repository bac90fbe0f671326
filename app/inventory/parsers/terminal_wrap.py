"""Kernel log lines that an 80-column terminal hard-wrapped and a copy padded back into one
line: the row's first 80 characters, the rest of the terminal's (or the web page's) row as
spaces, then the next row, which continues the same line mid-word (``... Direct firmware
load for qed/qed_init_values_z`` + 157 spaces + ``ipped-8.4.2.0.bin failed with error -2``).
The padding is dropped so the line reads as the kernel printed it; a line whose run of spaces
starts at any other column (a kernel's own aligned table, lines a forum joined with spaces) is
kept as it is. One whole-text search first: a log with no such line is returned untouched."""

from __future__ import annotations

import re

COLUMNS = 80  # the terminal's width: the head before the padding is exactly this long
PAD_MIN = 20  # the padding runs to a wider row's end; a shorter run is the line's own spacing

_PADDED = re.compile(rf"^([^\n]{{{COLUMNS - 1}}}\S) {{{PAD_MIN},}}(?=\S)", re.MULTILINE)


def join_terminal_wrapped(text: str) -> str:
    """The text with each padded hard wrap closed up (the line count is unchanged)."""
    return _PADDED.sub(r"\1", text)
