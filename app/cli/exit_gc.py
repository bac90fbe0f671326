"""The end of a command-line process: the garbage collector does not walk what is left.

When the interpreter exits it runs full collections over every object still alive (the
tables a command loaded: kernel messages, drivers, USB and PCI IDs, boards; the modules),
only to free them a moment later. After `sbctune inspect` of a bundle with a 100 000-line
dmesg those collections were ~10 % of the command's wall time. `gc.freeze()`, run as the
last exit handler, moves the survivors to the permanent generation, which those
collections skip. Exit handlers registered later (temporary folders, log handlers) run
before it, as before; reference counting still frees what the interpreter frees at exit.
Only objects caught in reference cycles at exit are left to the operating system, which
takes back the process's memory as a whole.
"""

from __future__ import annotations

import atexit
import gc

_registered = False


def freeze_at_exit() -> None:
    """Register gc.freeze() to run last at exit (once per process)."""
    global _registered
    if not _registered:
        _registered = True
        atexit.register(gc.freeze)
