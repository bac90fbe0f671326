"""Shared types and helpers for the pure output parsers.

Every parser takes the raw text of one command output (or file) and returns
``(result, warnings)``. Parsers never raise: unreadable input gives an empty or
"unknown" result plus a :class:`ParseWarning` naming the output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class ParseWarning:
    """Something in an output could not be read. ``source`` names the output."""

    source: str
    message: str

    def __str__(self) -> str:
        return f"“{self.source}”: {self.message}"


Parsed = tuple[T, list[ParseWarning]]

# "user@host ~ $ cmd", "lbox:~# cmd", "$ cmd"; "~$ cmd", "~/src# cmd": bash's PS1 "\w\$ " (the
# working directory alone, under the home directory), corpus/regr54_opi3b_dietpi_7490_*; also
# behind a forum's or mail's quote marks ("> pi@raspberrypi:~ $ lsmod", corpus/spi63_pizerow_*)
_PROMPT_RE = re.compile(
    r"^(?:>\s*)*(?:\S+@\S+(?:\s+\S+)?\s*[$#]|\S*:~\S*\s*[$#]|~(?:/[\w.-]*)*\s*[$#]|[$#])\s+\S"
)
# ``` and ~~~ fences; ''' alone on its line (a fence typed with quotes, corpus/x86_rtl8192cu_*)
_FENCE_RE = re.compile(r"^\s*(?:```|~~~|'''\s*$)")
_ELLIPSIS = frozenset({"...", "…", "[...]", "[…]", "(...)"})
ELLIPSIS = _ELLIPSIS  # a paste's elision marks, stripped


def to_text(raw: object) -> str:
    """Coerce any input to text: bytes are decoded with replacement, NULs removed."""
    if isinstance(raw, bytes | bytearray):
        text = bytes(raw).decode("utf-8", errors="replace")
    elif isinstance(raw, str):
        text = raw
    elif raw is None:
        text = ""
    else:
        text = str(raw)
    if "\r" not in text:  # one scan, not two (a long log's text may be 4 bytes a character)
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_lines(text: str) -> list[str]:
    """Lines without NULs; trailing whitespace kept out."""
    if "\x00" in text:
        text = text.replace("\x00", "")
    return [line.rstrip() for line in text.split("\n")]


def is_ellipsis(line: str) -> bool:
    return line.strip() in _ELLIPSIS


def is_noise(line: str) -> bool:
    """Blank lines, markdown fences, ``...`` elisions and shell prompts echoed in pastes."""
    stripped = line.strip()
    if not stripped or stripped in _ELLIPSIS:
        return True
    if _FENCE_RE.match(line):
        return True
    return bool(_PROMPT_RE.match(stripped))


def unbold(line: str) -> str:
    """A line without a forum's Markdown bold marks (``**rx_overruns: 1462**``): no tool
    prints ``**``, so taking them out never changes a real output's line."""
    return line.replace("**", "") if "**" in line else line


def to_int(value: str | None, base: int = 10) -> int | None:
    if value is None:
        return None
    try:
        return int(value.strip(), base)
    except ValueError:
        return None


def to_float(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        return float(value.strip())
    except ValueError:
        return None


def finish(
    source: str,
    text: str,
    found: int,
    unreadable: int,
    warnings: list[ParseWarning] | None = None,
    what: str = "lines",
) -> list[ParseWarning]:
    """Standard warnings: empty output, nothing readable, or N unreadable lines."""
    out = list(warnings or [])
    if not text or text.isspace():  # what `not text.strip()` says, without copying it
        out.append(ParseWarning(source, "the output is empty"))
    elif found == 0 and not out:  # a tool's own error message already says why
        out.append(
            ParseWarning(source, "nothing could be read (is this the output of this command?)")
        )
    elif unreadable:
        unit = what[:-1] if unreadable == 1 and what.endswith("s") else what
        out.append(ParseWarning(source, f"{unreadable} {unit} could not be read"))
    return out


def guarded(
    source: str,
    fn: Callable[[str], Parsed[T]],
    raw: object,
    empty: Callable[[], T],
) -> Parsed[T]:
    """Run ``fn`` on the text of ``raw``; any exception becomes a warning."""
    try:
        text = to_text(raw)
    except Exception as exc:  # pragma: no cover - str() of odd objects
        return empty(), [ParseWarning(source, f"could not be read as text ({exc})")]
    try:
        return fn(text)
    except Exception as exc:  # never raise to callers
        return empty(), [ParseWarning(source, f"could not be read ({type(exc).__name__}: {exc})")]
