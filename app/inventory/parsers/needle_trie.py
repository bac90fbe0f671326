"""A regex that finds whether any of many literal needles occurs in a text, as a trie.

`"|".join(needles)` makes re try every needle in turn at each position of the text (~100
needles: ~9 us per kernel log message, the largest part of classifying one). Written as a
trie, the needles that share a first character share one branch, so at each position re tests
that character once: the same answer in ~2/5 of the time. Only for a yes/no search: a needle
that another one starts with ends its branch (the longer one's rest is never needed), so a
match's text is not always the longest needle there."""

from __future__ import annotations

import re
from collections.abc import Iterable

_END = ""  # a trie node's mark: a needle ends here
_Node = dict[str, "_Node"]  # a character → the node after it


def any_of(needles: Iterable[str]) -> str:
    """A pattern whose search() matches exactly the texts that hold one of `needles` (an
    empty needle, which every text holds, gives an empty pattern)."""
    trie: _Node = {}
    for needle in needles:
        node = trie
        for char in needle:
            node = node.setdefault(char, {})
        node[_END] = {}
    return _branch(trie) if trie else "(?!)"


def _branch(node: _Node) -> str:
    if _END in node:  # a needle ends here: what would follow it is not needed
        return ""
    alternatives = [re.escape(char) + _branch(node[char]) for char in sorted(node)]
    if len(alternatives) == 1:
        return alternatives[0]
    return "(?:" + "|".join(alternatives) + ")"
