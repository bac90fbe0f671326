"""The end of the command line's own process: without the interpreter's tear-down.

When a command has returned, the interpreter's finalization frees every module and all they
hold (~260 modules for `sbctune inspect`, their classes, functions and tables) object by
object: ~18 M instructions, 3 % of `sbctune inspect BUNDLE --json` of a small bundle
(callgrind), for memory the operating system takes back at once. What that tear-down does
that anyone could see is done here first, in the same order: the exit handlers (atexit:
temporary folders' weakref.finalize, logging.shutdown, exit_gc's gc.freeze), then the
standard streams' flush; then the process ends with the command's exit code.

The ordinary exit is kept (this returns) whenever the tear-down could still matter: another
thread is alive (the interpreter would wait for it), or a standard stream cannot be flushed
(a closed pipe: its message and exit status as before). Only the console script's entry
(`sbctune.ui.launcher.run`) and the packaged program's end call this; a library caller or a
test calling main() keeps its interpreter.
"""

from __future__ import annotations

import atexit
import os
import sys


def _other_threads() -> bool:
    """Whether a thread besides this one is alive (threading not imported: none was started
    through it)."""
    threading = sys.modules.get("threading")
    return threading is not None and threading.active_count() > 1


def _flushed() -> bool:
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: the ordinary exit reports it
            return False
    return True


def end_process(code: int) -> None:
    """End the process with `code` after its exit handlers and a flush of stdout and stderr,
    skipping the interpreter's tear-down; returns (nothing done) when it cannot."""
    if _other_threads():
        return
    atexit._run_exitfuncs()  # each once: CPython clears them after running them
    if _other_threads() or not _flushed():  # a handler started one, or output is lost
        return
    os._exit(code)
