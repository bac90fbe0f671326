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
    that is not the word plus "s" ("1 Raspberry Pi", "3 Raspberry Pis" need none)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


__all__ = [
    "MODE_TERMS", "MODE_WORDS", "counted", "mode_term", "mode_words", "session_words", "spoken",
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
