"""Words as a person reads them: commands inside sentences, and counts with their nouns.

The core's messages and hints mark a command the user may type with backticks, Markdown's
way ("try `ping raspberrypi.local`"). A terminal or a window shows no Markdown, so before a
sentence is shown the marks become quotation marks: try “ping raspberrypi.local”. Only
pairs on one line are changed; a lone backtick (in a line quoted from the Pi) stays as it is.
"""

from __future__ import annotations

import re

_MARKED = re.compile(r"`([^`\n]+)`")


def spoken(text: str) -> str:
    """`text` with each `command` in quotation marks instead of backticks."""
    return _MARKED.sub(r"“\1”", text) if "`" in text else text


def counted(count: int, word: str, many: str | None = None) -> str:
    """A count and its noun, agreeing: "1 tweak", "2 tweaks", "0 tweaks"; `many` for a plural
    that is not the word plus "s" ("1 Raspberry Pi", "3 Raspberry Pis" need none). A large
    count is grouped as `grouped` writes it: "55,666 segments"."""
    return f"{grouped(count)} {word if count == 1 else (many or word + 's')}"


# How the core writes numbers inside sentences (findings, their evidence, the reports), one
# style everywhere (the s30 walk read "(6.2% of ~1664606)" beside tables' "11.3 %"):
# - a percent with a space before the sign, as the window's and the reports' tables already
#   write it (ui/units.change, export/tables and markdown, measure/table, the UDP and latency
#   lines: 12 places wrote " %"; 13 wrote "%", 10 of them in the advice's findings, whose
#   "6.2%" the walk read beside the tables' "11.3 %"). The tables win: they are on every
#   page and in every report, and the window keeps "11.3 %" together on one line;
# - a count grouped by thousands with commas, as the interface-counter findings already did
#   ("3,412 CRC errors against 1,200,000 packets"), never a bare "1664606".


def grouped(count: float) -> str:
    """A count rounded to a whole number, its thousands grouped: "1,664,606"."""
    return f"{round(count):,}"


def percent(part: float, whole: float = 1.0, places: int | None = None) -> str:
    """`part` as a percent of `whole` ("4.5 %", "63 %", "0.28 %"; "?" when `whole` is 0).
    Without `places` as many decimals as a share needs to be told from zero and from its
    neighbours: none from 10 % up, one from 1 %, two below."""
    if not whole:
        return "?"
    value = 100 * part / whole
    if places is None:
        size = abs(value)
        places = 0 if size >= 10 or size == 0 else 1 if size >= 1 else 2
    return f"{value:.{places}f} %"


__all__ = [
    "MODE_TERMS", "MODE_WORDS", "counted", "grouped", "mode_term", "mode_words", "percent",
    "session_words", "spoken",
]  # fmt: skip


# How a test sends, in the words a first-time user reads (issue 22 walk): the window, the
# Markdown and the HTML reports all take them from here; the precise term is for a tooltip or
# a note under a table.
MODE_WORDS: dict[str, str] = {
    "half": "One way",
    "full": "Both ways",
    "full_throttled": "Both ways, PC held back",
}

MODE_TERMS: dict[str, str] = {
    "half": "Half duplex: one direction at a time",
    "full": "Full duplex: both directions at once",
    "full_throttled": "Full duplex with this PC's sending limited, so the Pi's side is measured",
}


def mode_words(mode: str) -> str:
    return MODE_WORDS.get(mode, mode.replace("_", " "))


def mode_term(mode: str) -> str:
    return MODE_TERMS.get(mode, "")


_SESSION_STAMP = re.compile(r"(\d{8}T\d{6}Z)(?:-[0-9a-z]+)?")


def session_words(session_id: object, *, day: bool = True) -> str:
    """A tuning session as a user knows it, by when it was applied ("tuning applied
    2026-11-28 18:00", local time), never by its id; an id that is no time stamp (an older
    sbctune's) as "tuning applied earlier"."""
    import datetime as dt

    match = _SESSION_STAMP.fullmatch(str(session_id or ""))
    if match is None:
        return "tuning applied earlier"
    try:
        when = dt.datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ")
    except ValueError:
        return "tuning applied earlier"
    local = when.replace(tzinfo=dt.timezone.utc).astimezone()
    return f"tuning applied {local:%Y-%m-%d %H:%M}" if day else f"tuning applied at {local:%H:%M}"
