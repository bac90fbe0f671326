"""The garbage collector in a command-line process: it does not walk what lives until exit.

A command imports its modules and loads its tables (kernel messages, drivers, USB and PCI
IDs, boards) once; they live until the process ends. The collector would walk them again
and again: ~35 collections while `sbctune inspect` imports, then the full collections the
interpreter runs at exit (after a 100 000-line dmesg's inspect, ~10 % of the command's wall
time). So, as the desktop app does after its start (ui/app.py tune_gc):

* `imports_unwatched()`: in the process's own command (not a test calling main()), the
  collector is paused while the command's modules are imported and the survivors are then
  frozen (moved to the permanent generation, which no collection walks);
* `pause_from_start()`: the launcher pauses it earlier, from the start of its own command
  line, so that the command line's own imports (the CLI, its parser, logging, the export
  registry) and the kept code it reads (dataclass_code, regex_code: ~450 code objects) are
  not walked either: ~25 collections before imports_unwatched paused it (9 M instructions,
  1.6 % of a small bundle's `inspect`: callgrind);
* `freeze_at_exit()`: gc.freeze() is the last exit handler, so the interpreter's final
  collections skip what is left. Exit handlers registered later (temporary folders, log
  handlers) run before it, as before; reference counting still frees what the interpreter
  frees at exit; only objects caught in reference cycles then are left to the operating
  system, which takes back the process's memory as a whole.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

_registered = False
_paused_from_start = False  # pause_from_start() paused it: imports_unwatched() resumes it


def freeze_at_exit() -> None:
    """Register gc.freeze() to run after the exit handlers registered later (once)."""
    global _registered
    if not _registered:
        _registered = True
        atexit.register(gc.freeze)


def pause_from_start() -> None:
    """Pause the collector until the command's imports are done (imports_unwatched() then
    resumes it): for the launcher's own command line only, never the desktop app's."""
    global _paused_from_start
    if gc.isenabled():
        gc.disable()
        _paused_from_start = True


@contextmanager
def imports_unwatched(own_process: bool) -> Iterator[None]:
    """Pause the collector for the block, then freeze what it made (only in the process's
    own command: a test calling main() keeps its collector as it was)."""
    global _paused_from_start
    if not own_process:
        yield
        return
    was_enabled = gc.isenabled() or _paused_from_start
    gc.disable()
    try:
        yield
    finally:
        _paused_from_start = False
        if was_enabled:
            gc.enable()
        gc.freeze()
