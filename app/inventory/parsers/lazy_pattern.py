"""A regex compiled when first searched (the kernel log's line patterns)."""

from __future__ import annotations

import re


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
