"""The Qt application, its one asyncio loop, and the main window: what both the app and its
self-test start from (kept apart from ui/app.py, so the self-test needs nothing from it)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

import sbctune
from sbctune.ui.main_window import MainWindow
from sbctune.ui.png_export import register as register_png_export
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import ThemeManager

# asyncio and qasync (~0.1-0.3 s of imports) come with `event_loop`, which the app calls once its
# first window is painted (`paint_first`); the history and SSH when the window is filled
# (MainWindow.finish_start).
if TYPE_CHECKING:
    import asyncio

    import qasync

    from sbctune.history import History
    from sbctune.remote import KnownHosts

T = TypeVar("T")


def _needs_offscreen() -> bool:
    """Linux without a display: draw offscreen instead of failing to open one."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return False
    return sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )


def create_app(*, offscreen_if_headless: bool = False) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    if offscreen_if_headless and _needs_offscreen():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    # Fractional scaling (125 %, 150 %) as the OS asks, not rounded to whole pixels.
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    app = QApplication(sys.argv[:1])
    app.setApplicationName("sbctune")
    app.setApplicationDisplayName("sbctune")
    app.setOrganizationName("sbctune")
    app.setApplicationVersion(sbctune.__version__)
    app.setQuitOnLastWindowClosed(False)  # the asyncio loop decides when to stop
    return app


def event_loop(app: QApplication) -> qasync.QEventLoop:
    """The one asyncio loop running on Qt's event loop (created once per application)."""
    import asyncio

    import qasync

    loop = getattr(app, "_sbctune_loop", None)
    if loop is None:
        loop = qasync.QEventLoop(app)
        app._sbctune_loop = loop  # type: ignore[attr-defined]
    asyncio.set_event_loop(loop)
    return loop


def run_until_done(loop: qasync.QEventLoop, work: Awaitable[T]) -> T:
    """Run the loop until `work` is done; use this, not `loop.run_until_complete`.

    qasync's run_until_complete lets Qt process its events once more after the asyncio loop
    stopped running: a task stepped then finds no running loop, so `asyncio.wait_for` raises
    RuntimeError and drops the coroutine it was given ("coroutine ... was never awaited").
    Here the Qt loop just exits; what is still queued runs the next time the loop runs.
    """
    import asyncio

    future = asyncio.ensure_future(work, loop=loop)

    def stop(_done: asyncio.Future[T]) -> None:
        loop.stop()

    future.add_done_callback(stop)
    try:
        loop.run_forever()
    finally:
        future.remove_done_callback(stop)
    if not future.done():
        raise RuntimeError("the event loop stopped before the work was done")
    return future.result()


def make_window(
    app: QApplication,
    *,
    history: History | None = None,
    known_hosts: Callable[[], KnownHosts] | None = None,
    staged: bool = False,
) -> MainWindow:
    """The main window. `staged` (the app's start-up): the window with the Connect page alone,
    which `show_fitted` puts on the screen at once and fills once painted; otherwise filled here.
    `history` None: the user's own (opened when the window is filled)."""
    register_png_export()  # the Results page's PNG button (the launcher does it for the CLI)
    settings = AppSettings(app)
    theme = getattr(app, "_sbctune_theme", None)
    if theme is None:
        theme = ThemeManager(app, settings.theme)
        app._sbctune_theme = theme  # type: ignore[attr-defined]
    else:
        theme.apply(settings.theme)
    return MainWindow(history, settings, theme, known_hosts, staged=staged)


def paint_first(app: QApplication, window: QWidget, give_up_ms: int = 300) -> None:
    """Let Qt put `window` on the screen and paint it before the event loop's imports: a
    window manager maps it a little after `show` (after `give_up_ms`, on regardless)."""
    started = time.monotonic()
    while (time.monotonic() - started) * 1000 < give_up_ms:
        app.processEvents()
        handle = window.windowHandle()
        if handle is not None and handle.isExposed():
            window.repaint()
            return
        time.sleep(0.005)
