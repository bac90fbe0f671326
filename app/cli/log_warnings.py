"""The core's warnings (a history record left out, a known_hosts line skipped, a client of
`serve` refused) printed by the CLI as its own warnings, escaped and bounded, whatever logging
another library configured: not left to Python's last-resort handler."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator

from sbctune.cli.fit import warn
from sbctune.textsafe import visible
from sbctune.wording import spoken

# A warning quotes text from a Pi or a file: one screenful at most.
MAX_WARNING_CHARS = 1000
# A history of 10 000 damaged rows must not bury the command's own output.
MAX_WARNINGS = 20


class _Printer(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.printed = 0
        self.held_back = 0

    def emit(self, record: logging.LogRecord) -> None:
        if self.printed >= MAX_WARNINGS:
            self.held_back += 1
            return
        try:
            text = spoken(visible(record.getMessage()[:MAX_WARNING_CHARS])).removeprefix(
                "sbctune: "
            )
            warn(text)  # fit to the terminal (walk 25)
            self.printed += 1
        except Exception:  # a warning must never end the command
            self.handleError(record)


@contextlib.contextmanager
def warnings_on_stderr() -> Iterator[None]:
    """While inside, sbctune's warnings (and worse) go to stderr as `sbctune: warning: ...`."""
    logger = logging.getLogger("sbctune")
    handler = _Printer()
    propagated = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False  # printed once, here, not again by a root handler
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagated
        if handler.held_back:
            print(f"sbctune: warning: {handler.held_back} more warnings not shown", file=sys.stderr)
