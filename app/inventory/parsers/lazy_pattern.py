"""Regexes compiled when first used (the kernel log's line patterns; parsers' module patterns)."""

from __future__ import annotations

import re
from typing import cast


class Lazy:
    """A pattern compiled when first searched: a log is tried only against the patterns
    whose needles it has, so a short log compiles few of them (and none at import)."""

    __slots__ = ("_rx", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._rx: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(self.pattern)
        return rx.search(text)


class _Later:
    """A module's pattern compiled when first used: its methods and attributes are the compiled
    pattern's, copied onto it then (later look-ups find them without this class's
    __getattr__). A parser that a stored text never needs compiles nothing."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> object:
        rx = re.compile(*self._args)
        for attr in _ATTRS:
            setattr(self, attr, getattr(rx, attr))
        return getattr(rx, name)


_ATTRS = (
    "match", "search", "fullmatch", "finditer", "findall", "sub", "subn", "split",
    "pattern", "flags", "groups", "groupindex", "scanner",
)  # fmt: skip


def later(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """re.compile(pattern, flags), compiled when first used (not at every start of the
    program). Never for a pattern handed to re's functions or isinstance(): a method's."""
    return cast("re.Pattern[str]", _Later(pattern, flags))
