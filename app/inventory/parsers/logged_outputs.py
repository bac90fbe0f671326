"""Command outputs that a script LOGGED through syslog, found inside a system log: a start
script's ``ifconfig`` whose every line carries the logger's head (``Jan  1 01:01:05 fritz
user.notice root: eth2      Link encap:Ethernet ...``, corpus/fritzbox3490_freetz_3_*). The
head (date, host, facility.level, the tag ``root:``) is cut from each line of the program that
logged the output's first line, and what is left is read by the parser of the output whose
first line it is (paste_split's shapes): ifconfig, ip, lsusb, ethtool, iwconfig.

Cheap on a long log: plain substring searches for the words such a first line holds
(``Link encap:``, ``flags=``, ``> mtu ``, ``Bus ``, ``Settings for ``, ``IEEE 802.11``,
``no wireless extensions``); only the lines holding one are looked at, and the kernel's own
lines (tag ``kernel``) never start a part: they are the log's. A long text (a 100 000-line
kernel log, paste_split.LONG_TEXT characters or more) is not searched: a script's logged
output is in a router's or a small board's short system log, and each search is a pass."""

from __future__ import annotations

from .lazy_pattern import later
from .paste_split import _WEAK, LONG_TEXT
from .paste_split import _shape as shape_of

_NEEDLES = (
    "Link encap:",
    "flags=",
    "> mtu ",
    "Bus ",
    "Settings for ",
    "IEEE 802.11",
    "no wireless extensions",
)
# A syslog/logread head, then the tag of the program that logged the line and ": "
_HEAD = later(r"^(?P<head>.{0,120}?\s(?P<tag>[\w./-]{1,40})(?:\[\d{1,9}\])?: )")
MAX_PARTS = 20
MAX_LINES = 5000
MAX_HITS = 2000  # needle hits looked at in one text
MAX_GAP = 20  # other programs' lines in a row that end the logged output


def logged_parts(text: str) -> list[tuple[str, str]]:
    """(command, output) of each output logged in ``text``, the logger's heads cut off."""
    if len(text) >= LONG_TEXT:
        return []  # each needle is a pass over the text (17 ms over a 100 000-line log)
    parts: list[tuple[str, str]] = []
    done = -1  # where the last part's lines end: a start inside a part is that part's
    for begin in _start_lines(text):
        if len(parts) >= MAX_PARTS:
            break
        if begin < done:
            continue
        part = _part(text, begin)
        if part is not None:
            kind, body, done = part
            parts.append((kind, body))
    return parts


def _start_lines(text: str) -> list[int]:
    """Where the lines that hold a needle begin (only those are read), in order."""
    found: set[int] = set()
    for needle in _NEEDLES:
        at, hits = text.find(needle), 0
        while at != -1 and hits < MAX_HITS:
            hits += 1
            found.add(text.rfind("\n", 0, at) + 1)
            end = text.find("\n", at)
            at = -1 if end == -1 else text.find(needle, end + 1)
    return sorted(found)


def _line_at(text: str, begin: int) -> tuple[str, int]:
    """The line that starts at ``begin`` and where the next one starts (len(text) at the end)."""
    end = text.find("\n", begin)
    return (text[begin:], len(text)) if end == -1 else (text[begin:end], end + 1)


def _part(text: str, begin: int) -> tuple[str, str, int] | None:
    first, _next = _line_at(text, begin)
    m = _HEAD.match(first)
    if m is None or m.group("tag") == "kernel":
        return None
    kind = shape_of(first[m.end() :])
    if not kind or kind == "dmesg" or kind in _WEAK:
        return None
    token = first[m.start("tag") - 1 : m.end()]  # " root: ", " root[12]: "
    body: list[str] = []
    at = end = begin
    misses = 0
    for _ in range(MAX_LINES):
        if at >= len(text) or misses > MAX_GAP:
            break
        line, at = _line_at(text, at)
        cut = line.find(token)
        if 0 <= cut <= 120:
            body.append(line[cut + len(token) :])
            misses, end = 0, at
        else:
            misses += 1  # another program's line in between is skipped
    return kind, "\n".join(body) + "\n", end
