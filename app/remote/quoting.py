"""Turn argument lists into POSIX shell command lines, quoting every argument."""

from __future__ import annotations

import shlex
from collections.abc import Sequence


def join(argv: Sequence[str]) -> str:
    """One command line in which each element of argv arrives at the program unchanged."""
    if not argv:
        raise ValueError("empty command")
    return " ".join(shlex.quote(str(arg)) for arg in argv)
