"""How the packaged executables end: after Qt ran, without the interpreter's final clean-up.

The frozen GUI aborted at interpreter shutdown after a clean run ("Fatal Python error:
bool_dealloc: deallocating True or False", while garbage-collecting, no Python frame), a
C extension's refcount error during finalization that the source run does not hit. Once the
app is done nothing is left to clean up that the OS does not (files are flushed here,
logging is shut down), so a process that loaded Qt exits at once with the app's exit code.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from typing import NoReturn


def exit_now(code: int) -> NoReturn:
    if "PySide6.QtCore" not in sys.modules:  # the CLI without Qt: as the console script ends
        from sbctune.cli.process_end import end_process

        end_process(code)  # returns when the ordinary exit is needed
        sys.exit(code)
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    os._exit(code)
