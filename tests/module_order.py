"""The order pytest runs test modules in: the slowest first, by tests/module_durations.json.

scripts/test.sh runs pytest in two processes, whole modules to each (`--dist loadfile`), and
hands out modules in collection order (`--no-loadscope-reorder`: xdist's own reorder, the
modules with the most tests first, put the long one- and two-test modules, the kernel-source
comparisons and the demo, at the end, where one process ran them while the other had
finished). The longest modules first (the longest-processing-time rule) leave the many short
ones for the end, so the two processes end together. A module the file does not list keeps its
place after the listed ones; a stale figure only costs balance, never a test.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

DURATIONS = Path(__file__).resolve().parent / "module_durations.json"

T = TypeVar("T")


def load_seconds(path: Path = DURATIONS) -> dict[str, float]:
    """Module path (as pytest's node ids write it, "tests/unit/test_x.py") -> seconds."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    seconds = data.get("seconds", {})
    return {str(k): float(v) for k, v in seconds.items() if isinstance(v, int | float)}


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def slowest_first(
    items: Sequence[T], module: Callable[[T], str], seconds: dict[str, float]
) -> list[T]:
    """`items` with their modules reordered: listed modules by descending seconds (ties in
    collection order), then the others in collection order; a module's items keep their order."""
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(module(item), len(first_seen))

    def key(item: T) -> tuple[float, int]:
        name = module(item)
        return (-seconds.get(name, 0.0), first_seen[name])

    return sorted(items, key=key)  # stable: each module's own order is kept
