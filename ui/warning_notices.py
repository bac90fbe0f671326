"""The core's warnings (a history record left out, a known_hosts line skipped) shown in the
window's status bar, escaped, instead of only on a console the GUI user never sees.

Logging may happen on any thread; the signal is delivered on the GUI thread (queued)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from sbctune.textsafe import visible
from sbctune.wording import spoken

MAX_NOTICE_CHARS = 300


class WarningNotices(QObject):
    """Emits `warned(text)` for each warning logged under "sbctune" while installed."""

    warned = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        handler = _Forward(self)
        logging.getLogger("sbctune").addHandler(handler)
        self.destroyed.connect(lambda *_: logging.getLogger("sbctune").removeHandler(handler))


class _Forward(logging.Handler):
    def __init__(self, notices: WarningNotices) -> None:
        super().__init__(logging.WARNING)
        self._notices = notices

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = spoken(visible(record.getMessage()[:MAX_NOTICE_CHARS])).removeprefix("sbctune: ")
            self._notices.warned.emit(text)
        except RuntimeError:  # the window is gone: nothing left to show it
            logging.getLogger("sbctune").removeHandler(self)
        except Exception:  # a notice must never break the work that logged it
            self.handleError(record)
