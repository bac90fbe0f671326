"""A regex that finds whether any of many literal needles occurs in a text, as a trie.

`"|".join(needles)` makes re try every needle in turn at each position of the text (~100
needles: ~9 us per kernel log message, the largest part of classifying one). Written as a
trie, the needles that share a first character share one branch, so at each position re tests
that character once: the same answer in ~2/5 of the time. any_of() is for a yes/no search: a
needle that another one starts with ends its branch (the longer one's rest is never needed), so
a match's text is not always the longest needle there. longest_of() keeps the longer needles
(an optional rest after a needle's end, tried first): its match at a position is the longest
needle that starts there, so searching again from each match's start + 1 lists, with every
needle that each found one holds, exactly the needles that a text holds (one scan instead of
a substring test per needle)."""

from __future__ import annotations

import re
from collections.abc import Iterable

_END = ""  # a trie node's mark: a needle ends here
_Node = dict[str, "_Node"]  # a character → the node after it


def any_of(needles: Iterable[str]) -> str:
    """A pattern whose search() matches exactly the texts that hold one of `needles` (an
    empty needle, which every text holds, gives an empty pattern)."""
    trie = _trie(needles)
    return _branch(trie) if trie else "(?!)"


def longest_of(needles: Iterable[str]) -> str:
    """A pattern whose match at any position of a text is the longest of `needles` that
    starts there (none: no match there); the same texts as any_of(needles) match it."""
    trie = _trie(needles)
    return _branch(trie, longest=True) if trie else "(?!)"


def _trie(needles: Iterable[str]) -> _Node:
    trie: _Node = {}
    for needle in needles:
        node = trie
        for char in needle:
            node = node.setdefault(char, {})
        node[_END] = {}
    return trie


def _branch(node: _Node, longest: bool = False) -> str:
    if _END in node and not longest:  # a needle ends here: what would follow it is not needed
        return ""
    alternatives = [
        re.escape(char) + _branch(node[char], longest) for char in sorted(node) if char != _END
    ]
    if not alternatives:
        return ""
    choice = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
    if _END in node:  # a needle ends here, a longer one may go on: the longer tried first
        return f"(?:{choice})?"
    return choice
