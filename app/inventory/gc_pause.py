"""The cyclic garbage collector paused while an inventory is parsed and built.

Parsing a long log makes ~10^5 small objects (events, fields, facts) that form no cycles and
live until the inventory is done; the collector would walk them, and every object the
program has imported, again and again for nothing (its full collections alone were ~20-40 %
of an inspect of a 100 000-line dmesg). Reference counting still frees everything at once;
cycles made meanwhile are collected when the pause ends. The pause is counted, so two
threads inspecting at once (the GUI's worker and another) leave the collector as they found
it when the last one ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
