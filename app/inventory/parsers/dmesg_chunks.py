"""A long log cut at its plain kernel clocks in one C-level pass (parsers/dmesg.py's loop).

A 100 000-line log is mostly lines "[  12.345678] msg" whose message came before under
another clock. Splitting the text at each line start that holds such a clock
(``re.split``: two strings a line, no match object, no strip, no tuple of groups) lets the
loop answer such a line from a memo keyed by what follows the clock, as one dict hit, and
read every other line (the first of a message, another wrapper, a line the clock's pattern
does not take) one by one as before (issue 24, speed: work per distinct message, not per
line).
"""

from __future__ import annotations

from .lazy_pattern import later

# A plain clock at a line's start: "[", spaces, the seconds in ASCII digits, "] ". The
# seconds' group keeps the spaces before them (float() reads " 12.5" as 12.5), so that
# "[" + clock + "] " + chunk is the line again. A clock of any other shape ("@<cpu>]", a
# tab, a caller id right after "]" is part of the chunk then) is not cut at: its line stays
# in the chunk before it, which the loop reads line by line.
_PLAIN_CLOCK_RE = later(r"\n\[( *[0-9]+\.[0-9]+)\] ")
# how far the text is looked at for such a clock before it is cut (a log of another
# wrapper, syslog's or a journal's, is not scanned whole for nothing)
_SNIFF = 8192


def clock_chunks(text: str) -> list[str]:
    """``[lead, clock, chunk, clock, chunk ...]``: `text` cut before each line (but the
    first) that starts with a plain clock; ``lead + "\\n" + "[" + clock + "] " + chunk ...``
    is `text` again, so each chunk's lines are the text's lines, in order. ``[text]`` alone
    when the text's start shows no such clock or a carriage return (a CRLF paste's lines end
    in one: its chunks would never be a message read before)."""
    head = text[:_SNIFF]
    if "\r" in head or ("\n[" not in head and not head.startswith("[")):
        return [text]
    return _PLAIN_CLOCK_RE.split(text)
