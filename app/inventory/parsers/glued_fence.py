"""A Markdown code fence glued to a pasted output's first or last line (issue 24, the
seventy-ninth set): "```[ 2301.316735] usb 1-1.1: reset high-speed USB device ..." or
"``` Bus 001 Device 006: ID 148f:5370 ...", the poster having typed the fence on the line of
the output's first line. A fence line of its own ("```", "```console") is noise already
(common.is_noise); glued to a line of the output, it would hide that line from every parser,
so it is taken off and the line kept.

A fence followed by one word is an opening fence and its info string (the language), left
alone; followed by text with a space or a "[" (a kernel clock), it is the output's line. One
substring test for a text without a fence.

Both rules read one line (neither pattern crosses a "\\n"), so only the lines holding a fence
are given to them, found by `str.find` (issue 24, speed): the patterns over a whole
100 000-line log tried their anchor and lookbehind at every position (~270 ms of CPU for a
log holding one fenced paste, whose lines the bench log repeats).
"""

from __future__ import annotations

import re

_FENCES = ("```", "~~~")
# a fence at a line's start and what follows on that line: a kernel clock, or words with a
# space between them (an info string is one word)
_OPENING = re.compile(r"^([ \t]*)(?:```|~~~)[ \t]*(?=\[|\S+[ \t]+\S)", re.MULTILINE)
# a closing fence after a line's last character ("... using dwc2```")
_CLOSING = re.compile(r"(?<=\S)(?:```|~~~)[ \t]*$", re.MULTILINE)


def _fenced_line_starts(text: str) -> list[int]:
    """Where each line holding a fence starts, in order (a line once however many it holds)."""
    starts: set[int] = set()
    for fence in _FENCES:
        at = text.find(fence)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            starts.add(start)
            end = text.find("\n", at)
            if end < 0:
                break
            at = text.find(fence, end)  # the next line that holds one: each line read once
    return sorted(starts)


def unglue_fences(text: str) -> str:
    """``text`` without the Markdown fences glued to its lines' start or end."""
    if not any(fence in text for fence in _FENCES):
        return text
    pieces: list[str] = []
    kept = 0  # text before this is in pieces
    for start in _fenced_line_starts(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        unglued = _CLOSING.sub("", _OPENING.sub(r"\1", line))
        if unglued != line:
            pieces += (text[kept:start], unglued)
            kept = end
    if not pieces:
        return text
    pieces.append(text[kept:])
    return "".join(pieces)
