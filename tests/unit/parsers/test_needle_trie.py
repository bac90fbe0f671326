"""The kernel log's needle search (dmesg_classify._NEEDLE_RE, one search per distinct message
of a log) is a trie of the needles (issue 24: ~100 needles tried in turn at each position of
each message were most of classifying it): it says yes for exactly the messages that hold a
needle, and no two branches of one choice start with the same character."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers import dmesg_classify
from sbctune.inventory.parsers.dmesg_patterns import _NEEDLES
from sbctune.inventory.parsers.needle_trie import any_of

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
