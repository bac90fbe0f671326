"""Break opportunities inside the long words of a report's table cells.

A sysfs path or a sysctl's name ("/sys/class/net/eth0/queues/rx-0/rps_cpus",
"net.core.rps_sock_flow_entries") is one word to a browser: a table holding it cannot be
narrower than it, and at 800 px the tuning table ran to 868 px, its changes cut off at the
window's edge (walk 27). CSS's `overflow-wrap: anywhere` would let the browser break every word
anywhere, and it then squeezed the short columns to "ap/pli/ed". Here only a long word gets a
`<wbr>` after each of its separators, so it breaks where a person would read a break and
short words stay whole.

Works on text already escaped (`html_report.esc`): no separator below occurs inside an entity
(`&amp;`, `&#x27;`), so none is split. Linear in the text, no regex (the text is the Pi's).
"""

from __future__ import annotations

LONG = 20  # characters: a word shorter than this fits any column the report draws
SEPARATORS = frozenset("/._-=,:")


def _word(word: str) -> str:
    if len(word) < LONG:
        return word
    return "".join(f"{ch}<wbr>" if ch in SEPARATORS else ch for ch in word)


def breakable(escaped: str) -> str:
    """`escaped` (HTML-escaped text) with a break opportunity after each separator of its
    long words."""
    return " ".join(_word(word) for word in escaped.split(" "))


def together(escaped: str) -> str:
    """A change's figure ("+98 Mbit/s (+13.3 %)") that may wrap only before its bracket: a
    number never parts from its unit ("(+13.3" over "%)" in a narrow column, walk 27)."""
    return escaped.replace(" ", "\u00a0").replace("\u00a0(", " (")


__all__ = ["breakable", "together"]
