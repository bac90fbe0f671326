"""Whether an output's first line is the command typed above it is read from that line alone:
a long log is not copied to answer it (issue 24; command_echo.echoed)."""

from __future__ import annotations

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers.command_echo import echoed

_LINE = "[    2.100000] r8152 2-1:1.0 eth1: carrier on\n"


def _reference(cmdline: str, text: str) -> str:
    """The rule as first written: the text cut at its first line break."""
    command = " ".join(cmdline.split())
    first, newline, rest = text.lstrip("\n").partition("\n")
    if len(command) < 3 or " ".join(first.split()) != command:
        return text
    return rest if newline else ""


def test_a_long_log_is_not_copied_to_read_its_first_line() -> None:
    text = _LINE * 20_000  # ~1 MB
    tracemalloc.start()
    try:
        kept = echoed("dmesg", text)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept is text
    assert peak < len(text) // 10  # the first line's few copies, not the log's


def test_the_typed_command_is_still_taken_off() -> None:
    assert echoed("dmesg", "\ndmesg\n" + _LINE) == _LINE
    assert echoed("dmesg", "dmesg") == ""


_PIECES = st.sampled_from(["dmesg", "ip -s link", " ", "\t", "\n", "\r", "eth0", "x"])


@given(
    st.sampled_from(["dmesg", "ip -s link", "ip", "  ip   -s  link "]),
    st.lists(_PIECES, max_size=12).map("".join),
)
def test_the_same_text_as_the_first_rule(cmdline: str, text: str) -> None:
    assert echoed(cmdline, text) == _reference(cmdline, text)
