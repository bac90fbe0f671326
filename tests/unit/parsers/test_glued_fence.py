"""Markdown fences glued to a paste's lines are taken off line by line: only the lines that
hold a fence are read by the fence patterns (issue 24, speed), with the same text as the two
patterns over the whole text gave."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers import glued_fence
from sbctune.inventory.parsers.glued_fence import unglue_fences

# the 79th set's fenced paste (tests/captures/corpus/game79_rk3326_retroroller_183_rt5370_
# rt2800usb_firmware_missing_fenced), its first line's fence as the poster typed it
_FENCED = "```[ 2301.316735] usb 1-1.1: reset high-speed USB device number 3 using dwc2"
_PLAIN = "[ 2301.400000] usb 1-1.1: Product: 802.11 n WLAN"


def _whole_text(text: str) -> str:
    """The rule as it was first written: both patterns over the whole text."""
    return glued_fence._CLOSING.sub("", glued_fence._OPENING.sub(r"\1", text))


class _Reading:
    """A pattern that counts the characters it is given to substitute in."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.read = pattern, 0

    def sub(self, repl: str, text: str) -> str:
        self.read += len(text)
        return self.pattern.sub(repl, text)


def test_a_long_log_with_one_fenced_line_reads_that_line_alone(monkeypatch) -> None:
    """2 000 lines, one of them fenced: the fence is taken off that line, every other line is
    kept, and the patterns read that line only (the whole ~110 000 characters before)."""
    lines = [_PLAIN] * 1_000 + [_FENCED] + [_PLAIN] * 999
    text = "\n".join(lines) + "\n"
    opening, closing = _Reading(glued_fence._OPENING), _Reading(glued_fence._CLOSING)
    monkeypatch.setattr(glued_fence, "_OPENING", opening)
    monkeypatch.setattr(glued_fence, "_CLOSING", closing)
    out = unglue_fences(text)
    assert out.split("\n")[1_000] == _FENCED.removeprefix("```")
    assert out == text.replace(_FENCED, _FENCED.removeprefix("```"))
    assert opening.read + closing.read <= 2 * len(_FENCED)


def test_a_closing_fence_on_the_last_line_without_a_newline() -> None:
    assert unglue_fences(f"{_PLAIN}\n{_PLAIN}```") == f"{_PLAIN}\n{_PLAIN}"
    assert unglue_fences("```console\n```") == "```console\n```"


_PIECES = st.sampled_from(
    ["```", "~~~", "``", "~", " ", "\t", "\n", "\r", "[", "] ", "a", "eth0 up", "x y", "\u00e9"]
)


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_the_same_text_as_the_patterns_over_the_whole_text(text: str) -> None:
    assert unglue_fences(text) == _whole_text(text)
