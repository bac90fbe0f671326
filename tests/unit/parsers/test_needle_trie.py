"""The kernel log's needle search (dmesg_classify._NEEDLE_RE, one search per distinct message
of a log) is a trie of the needles (issue 24: ~100 needles tried in turn at each position of
each message were most of classifying it): it says yes for exactly the messages that hold a
needle, and no two branches of one choice start with the same character. The kinds of a
message come from one scan too (longest_of: the longest needle at each position, searched again
from each match's start + 1): exactly the needles a substring test of each needle finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import dmesg_classify
from sbctune.inventory.parsers.dmesg_patterns import _NEEDLES
from sbctune.inventory.parsers.needle_trie import any_of, longest_of

_TEXT = st.text(alphabet="ab c:-(.", max_size=12)


@given(needles=st.lists(_TEXT, max_size=6), text=_TEXT)
def test_the_trie_finds_a_needle_exactly_when_the_text_holds_one(
    needles: list[str], text: str
) -> None:
    found = re.search(any_of(needles), text) is not None
    assert found == any(needle in text for needle in needles)


def _first_characters_repeat(pattern: str) -> bool:
    """Whether a choice of `pattern` (a "(?:...|...)" group) has two branches that start with
    the same character (a needle pattern written as a plain alternation has many)."""
    parsed = re._parser.parse(pattern)  # type: ignore[attr-defined]
    stack = [parsed]
    while stack:
        for op, value in stack.pop():
            if op is re._constants.SUBPATTERN:  # type: ignore[attr-defined]
                stack.append(value[-1])
            elif op is re._constants.BRANCH:  # type: ignore[attr-defined]
                firsts = [branch[0] for branch in value[1] if len(branch)]
                if len(firsts) != len(set(map(str, firsts))):
                    return True
                stack.extend(value[1])
    return False


def test_the_log_s_needle_search_tries_each_first_character_once() -> None:
    needles = {n for kind, ns in _NEEDLES.items() if kind != "device" for n in ns}
    assert len(needles) > 50
    pattern = dmesg_classify._NEEDLE_RE.pattern
    assert not _first_characters_repeat(pattern)
    for message in (
        "r8152 2-1:1.0 eth0: Tx timeout",
        "usb 1-1.3: new high-speed USB device number 4 using xhci_hcd",
        "random: crng init done",
    ):
        assert (re.search(pattern, message) is not None) == any(n in message for n in needles)


@given(needles=st.lists(_TEXT, max_size=6), text=_TEXT)
def test_the_longest_trie_matches_the_longest_needle_at_each_position(
    needles: list[str], text: str
) -> None:
    rx = re.compile(longest_of(needles))
    for at in range(len(text) + 1):
        here = [n for n in needles if text.startswith(n, at)]
        m = rx.match(text, at)
        assert (m.group() if m else None) == (max(here, key=len) if here else None)


def _held_by_scan(needles: list[str], text: str) -> set[str]:
    """The needles one scan finds: each match (searched again from its start + 1) and every
    needle that the matched one holds."""
    rx, held = re.compile(longest_of(needles)), set()
    m = rx.search(text)
    while m is not None:
        held |= {n for n in needles if n in m.group()}
        m = rx.search(text, m.start() + 1)
    return held


@given(needles=st.lists(_TEXT.filter(bool), max_size=6), text=_TEXT)
def test_one_scan_finds_exactly_the_needles_a_text_holds(needles: list[str], text: str) -> None:
    assert _held_by_scan(needles, text) == {n for n in needles if n in text}


_ALL = sorted({n for ns in _NEEDLES.values() for n in ns})


@settings(max_examples=300)
@given(st.lists(st.sampled_from([*_ALL, " ", "x", "eth0", "1-1.2:1.0", ": "]), max_size=8))
def test_a_message_s_kinds_are_the_kinds_of_every_needle_it_holds(words: list[str]) -> None:
    """The real table: _kinds_of(message) is the kinds whose needles a substring test finds
    (needles run together, overlapping, one inside another)."""
    msg = "".join(words)
    want = {k for k, ns in _NEEDLES.items() if any(n in msg for n in ns)}
    assert dmesg_classify._kinds_of(msg) == want
