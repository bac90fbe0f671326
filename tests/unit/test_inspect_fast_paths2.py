"""More fast paths of a long log's inspect (issue 24, speed) give what the plain code gives:
a paste's breaks are looked for only where a line may start one; the kernel message
index kept packed is the index; a parser's pattern compiled when first used matches as one
compiled at import."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.catalog import kernel_messages as km
from sbctune.inventory.parsers import lazy_pattern, paste_split

# lines as a paste or a kernel log has them: prompts, separators, titles, kernel lines
_PIECES = st.sampled_from(
    [
        "[    1.234567] usb 1-1: new device # 3",
        "<6>[    2.000000] eth0: link up $ ",
        "<4>wemac wemac.0: WARNING # no IRQ",
        "[ 3.1] cmd $ ls",
        "pi@raspberrypi:~ $ lsusb",
        "# ip a",
        "$ dmesg",
        "❯ lshw",
        "---",
        "===",
        "### network:",
        "Network Info",
        "  $ ethtool eth0",
        "\t# x",
        "",
        "Bus 001 Device 002: ID 0b95:1790",
    ]
)
_LINES = st.lists(st.one_of(_PIECES, st.text(alphabet="[<$#❯ -=\tab:@~\r", max_size=8)))


@settings(max_examples=300, deadline=None)
@given(_LINES, st.booleans())
def test_break_offsets_are_the_marker_searchs(lines: list[str], trailing: bool) -> None:
    text = "\n".join(lines) + ("\n" if trailing else "")
    assert paste_split._break_offsets(text) == paste_split._marker_offsets(text)


def test_a_kernel_log_has_no_break_and_a_prompt_is_one() -> None:
    log = "[    1.000000] usb 1-1: x # y $ z\n<4>[    2.000000] a $ b\n"
    assert paste_split._break_offsets(log) == []
    pasted = log + "pi@raspberrypi:~ $ lsusb\nBus 001 Device 002: ID 0b95:1790\n"
    assert paste_split._break_offsets(pasted) == [len(log)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab\t#%s \r", max_size=10), max_size=12))
def test_the_packed_message_index_unpacks_to_the_index(rows: list[str]) -> None:
    text = "\n".join(rows)
    table = km.MessageTable(text, {})
    assert table._by_word == km.index_rows(text)
    assert len(table) == sum(map(len, km.index_rows(text).values()))


def _later_patterns() -> list[object]:
    import importlib

    names = "dmesg netif paste_split lspci lsusb ethtool report_tools hwinfo wireless_tools"
    found: list[object] = []
    for name in (names + " ethtool_stats lshw").split():
        module = importlib.import_module(f"sbctune.inventory.parsers.{name}")
        for value in vars(module).values():
            items = value if isinstance(value, tuple) else (value,)
            for item in items:
                for part in item if isinstance(item, tuple) else (item,):
                    if isinstance(part, lazy_pattern._Later):
                        found.append(part)
    return found


_LATER = _later_patterns()


def test_the_parsers_patterns_are_compiled_when_first_used() -> None:
    assert len(_LATER) > 100
    fresh = lazy_pattern.later(r"^(\d+) (?P<word>\w+)", re.I)
    assert "search" not in vars(fresh)  # nothing compiled yet
    assert fresh.pattern == r"^(\d+) (?P<word>\w+)" and fresh.flags & re.I
    assert "search" in vars(fresh)  # compiled once, its methods kept


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="[]<>:.@#$ -_01289abcxyzAEZ\t=/()", max_size=40))
def test_a_pattern_compiled_later_matches_as_one_compiled_now(text: str) -> None:
    for lazy in _LATER:
        pattern, flags = lazy._args  # type: ignore[attr-defined]
        now = re.compile(pattern, flags)
        for got, want in (
            (lazy.search(text), now.search(text)),
            (lazy.match(text), now.match(text)),
        ):  # type: ignore[attr-defined]
            assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups()))
