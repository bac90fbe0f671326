"""The CLI's human text fit to the terminal's width (walk 22: `tune plan`'s "Why:" lines ran to
600 columns, `inspect`'s chip line, `lab status`'s limits and apply's link words past 130, and
an 80-column terminal broke them mid-word at column 80 with no indent).

Only where the text goes to a terminal, at COLUMNS or else the terminal's width. Text sent to a
pipe or a file keeps its lines whole (scripts grep them), even where COLUMNS is set (pytest-xdist
sets COLUMNS=80 in its workers and their children: CI's run wrapped lines its tests grep), and
JSON is never wrapped (its callers do not call this).
A long line is broken between words, never inside one (a path, a command, a tweak's name are
typed as printed), and its continuation is indented two more than the line, so it reads as
one item.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Iterable
from typing import TextIO

NARROWEST = 40  # below this a wrap helps nobody: lines are left whole


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed, or no file behind it
        return False


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The width to fit text for `stream` (standard output by default) to: COLUMNS, else the
    terminal's; None when the stream is no terminal or no width is known."""
    if not _is_terminal(sys.stdout if stream is None else stream):
        return None
    columns = shutil.get_terminal_size((0, 0)).columns
    return columns if columns >= NARROWEST else None


def fit_line(line: str, width: int | None) -> list[str]:
    """`line` as lines no wider than `width` where it breaks between words."""
    if width is None or len(line) < width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    parts = textwrap.wrap(line, width - 1, subsequent_indent=" " * (indent + 2),
                          break_long_words=False, break_on_hyphens=False) or [line]  # fmt: skip
    # A word too long for the room beside its indent (a 129-column URL under `advise`'s
    # "source:", walk 26) stands alone at the left margin: the terminal's own wrap then goes on
    # at the margin, the URL stays one string to click or copy, and no indent is torn.
    return [p.lstrip(" ") if len(p) >= width and " " not in p.strip() else p for p in parts]


def fit(text: str | Iterable[str], width: int | None = None) -> str:
    """Text (or its lines) fit to `width`, by default the terminal's."""
    lines = text.split("\n") if isinstance(text, str) else list(text)
    width = terminal_width() if width is None else width
    return "\n".join(part for line in lines for part in fit_line(line, width))


def table_fit(table: tuple[list[str], list[list[str]]], drawn: str, width: int | None) -> str:
    """A table as `drawn` (its aligned text) where it fits `width`; else each row as lines of
    its own, its first two cells as its name and every other cell by its column's name (walk
    s23: `compare`'s table was 117 columns at 80, each row cut by the terminal). A row that is
    no table row (a group's title) stays as it is."""
    if width is None or max((len(line) for line in drawn.splitlines()), default=0) < width:
        return drawn
    header, rows = table
    out: list[str] = []
    for row in rows:
        if len(row) != len(header):
            out.append(" ".join(row))
            continue
        name = " · ".join(cell for cell in row[:2] if cell)
        out.append(name)
        out += [
            f"    {head}: {cell}" for head, cell in zip(header[2:], row[2:], strict=True) if cell
        ]
    return fit(out, width)


def warn(text: str) -> None:
    """`sbctune: warning: TEXT` on standard error, fit to its terminal like the rest (walk 25:
    measure's "Tuning is in force on the Pi. In force now: ..." was 218 columns at 80)."""
    print(fit(f"sbctune: warning: {text}", terminal_width(sys.stderr)), file=sys.stderr, flush=True)
