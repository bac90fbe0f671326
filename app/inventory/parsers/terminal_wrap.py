"""Kernel log lines that an 80-column terminal hard-wrapped and a copy padded back into one
line: the row's first 80 characters, the rest of the terminal's (or the web page's) row as
spaces, then the next row, which continues the same line mid-word (``... Direct firmware
load for qed/qed_init_values_z`` + 157 spaces + ``ipped-8.4.2.0.bin failed with error -2``).
The padding is dropped so the line reads as the kernel printed it; a line whose run of spaces
starts at any other column (a kernel's own aligned table, lines a forum joined with spaces) is
kept as it is. Each run of spaces is found with str.find: a log with none costs one search (a
regex tried at every line's start took 0.3 s over an 8 MB log)."""

from __future__ import annotations

import re

COLUMNS = 80  # the terminal's width: the head before the padding is exactly this long
PAD_MIN = 20  # the padding runs to a wider row's end; a shorter run is the line's own spacing
_PAD = " " * PAD_MIN
_SPACES = re.compile(" +")  # the run's end, in C: a long run is not walked in Python


def join_terminal_wrapped(text: str) -> str:
    """The text with each padded hard wrap closed up (the line count is unchanged)."""
    at = text.find(_PAD)
    if at == -1:
        return text
    pieces: list[str] = []
    kept = 0  # text[kept:] is not copied yet
    while at != -1:
        run = _SPACES.match(text, at)
        end = run.end() if run else at + PAD_MIN
        column = at - (text.rfind("\n", 0, at) + 1)
        head_fills_row = column == COLUMNS and not text[at - 1].isspace()
        line_goes_on = end < len(text) and not text[end].isspace()  # after the padding
        if head_fills_row and line_goes_on:
            pieces.append(text[kept:at])
            kept = end
        at = text.find(_PAD, end)
    return "".join([*pieces, text[kept:]]) if pieces else text
