"""The staged start-up: the main window on the screen first with the Connect page alone, the
core imported on a worker thread then, the window filled after (issue 22: first window < 1.5 s)."""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

# The core packages the filled window needs (no Qt in them): imported on a worker thread while
# the window (the Connect page alone) stays responsive: the user types, it repaints, moves and
# closes; the other pages are made on the GUI thread afterwards (`finish_start`).
PRELOAD = (
    "sbctune.history",
    # The packages load their names on first use (sbctune.lazy): the heavy modules by name.
    "sbctune.remote.session",
    "sbctune.remote.hostkeys",
    "sbctune.tuning.session",
    "sbctune.workflow.one_click",
    "sbctune.workflow.connecting",
    "sbctune.workflow.leftover",
    "sbctune.workflow.tuning_words",
    "sbctune.advice.stored",
    "sbctune.compare.state_diff",
    "sbctune.compare.waterfall",
    "sbctune.export.report_data",
    "sbctune.measure.latency.report",
)


def preload() -> None:
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:  # finish_start imports it again and shows the error
            return


def fill_when_shown(
    window: QWidget,
    preloading: threading.Thread,
    fill: Callable[[], None],
    poll_ms: int = 10,
    give_up_ms: int = 500,
) -> None:
    """Fill a staged window (`fill`) once it is on the screen and painted (a window manager maps
    it a little after `show`; after `give_up_ms` regardless) and the core is imported:
    `preloading` is started then (unless it runs already) and has ended."""
    timer = QTimer(window)
    timer.setInterval(poll_ms)
    started = time.monotonic()
    painted: list[bool] = []

    def check() -> None:
        if not painted:
            handle = window.windowHandle()
            exposed = handle is not None and handle.isExposed()
            if not exposed and (time.monotonic() - started) * 1000 < give_up_ms:
                return
            if exposed:
                window.repaint()  # the Connect page on the screen now, before the slow part
            painted.append(True)
            if preloading.ident is None:  # not started yet: after the first paint, not beside it
                preloading.start()
        if preloading.is_alive():
            return
        timer.stop()
        timer.deleteLater()
        QTimer.singleShot(0, fill)

    timer.timeout.connect(check)
    timer.start()
