"""Kernel lines that a post ran together on one line with the author's elision between them: a
blog's code widget that lost its line breaks ("asix 3-1.4:1.0 eth5: register 'asix' at ...,
00:24:9c:04:44:28 ...... eth3: link up, 100Mbps, full-duplex, lpa 0x45E1 |",
corpus/wrap40_ubuntu1404_*). A run of three or more dots between blanks, followed by the head
of a kernel message (a driver and its device, or an interface's name and a colon), ends one
line and starts the next when a message comes before it on the line ("[ 6170.2] ... eth0: Link
is Up" elides the driver and device of ONE message, corpus/am62l_ti_e2e_*). Lines with the
kernel's clock are split by that clock instead (dmesg_heads.message_head()); one substring test
for the whole text when no such run is there. The split line's parts take one line number
each: the lines after it move down by one.

parsers/dmesg.py splits its log into lines first and splits the few lines that hold a run
(split_elided_lines): a run, the blanks and dots around it and the head after it never cross a
line end, so that is split_elided() of the whole text, without copying a long log whole twice
(a 100 000-line log that a character beyond U+FFFF makes four bytes a character: ~30 ms)."""

from __future__ import annotations

from itertools import compress, count, repeat
from operator import contains

from .dmesg_names import ADDRESSED_BUS_ID, OLD_NETDEV
from .lazy_pattern import later

_RUN = "... "  # the end of every elision run the split looks at
# what follows the run: SHAPE_RE's head ("asix 3-1.4:1.0 eth5: ") or an interface's ("eth3: ")
_HEAD_RE = later(
    rf"(?:[A-Za-z][\w-]* (?:{ADDRESSED_BUS_ID}|\d+-[\d.]+)(?: [\w.-]+)?|{OLD_NETDEV}): "
)


def split_elided(text: str) -> str:
    """`text` with each elision run that joins two kernel messages turned into a line break."""
    if _RUN not in text:
        return text
    out: list[str] = []
    pos = 0
    at = text.find(_RUN)
    while at != -1:
        start = at + 2  # the run's last dot
        while start > 0 and text[start - 1] == ".":
            start -= 1
        nxt = at + len(_RUN)
        while nxt < len(text) and text[nxt] in " \t":
            nxt += 1
        dots = at + 3 - start
        line_start = text.rfind("\n", 0, start) + 1
        if (
            dots >= 3
            and start > 0
            and text[start - 1] in " \t"
            and ": " in text[line_start:start]  # a message before it, not a clock alone
            and _HEAD_RE.match(text, nxt)
        ):
            out.append(text[pos : start - 1])
            out.append("\n")
            pos = nxt
        at = text.find(_RUN, at + len(_RUN))
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def split_elided_lines(lines: list[str], text: str | None = None) -> list[str]:
    """``split_elided("\\n".join(lines)).split("\\n")``, reading only the lines that hold a
    run (`lines` itself when none is split). `text`, when given, is the text whose
    ``split("\\n")`` `lines` is: the lines holding a run are then found in it (a run holds no
    line break: each is inside one line), by one find per run and a count of the line breaks
    between two runs, not by a test of every line."""
    if text is not None:
        nos = _lines_with_run(text)
    else:  # one C-level pass (a Python step per line of a 100 000-line log costs ~10x it)
        nos = list(compress(count(), map(contains, lines, repeat(_RUN))))
    splits = [(no, parts) for no in nos if len(parts := split_elided(lines[no]).split("\n")) > 1]
    if not splits:
        return lines
    out: list[str] = []
    done = 0
    for no, parts in splits:
        out += lines[done:no]
        out += parts
        done = no + 1
    out += lines[done:]
    return out


def _lines_with_run(text: str) -> list[int]:
    """The 0-based numbers of the lines of `text` (split at "\\n") that hold a run, in order."""
    nos: list[int] = []
    at = text.find(_RUN)
    line = before = 0
    while at != -1:
        line += text.count("\n", before, at)
        before = at
        if not nos or nos[-1] != line:
            nos.append(line)
        at = text.find(_RUN, at + 1)
    return nos
