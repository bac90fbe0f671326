"""GUI start-up: the Qt application, qasync's event loop and the main window."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import qasync
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

import sbctune
from sbctune.errors import UserError
from sbctune.history import History
from sbctune.remote import KnownHosts
from sbctune.ui.demo import Demo, parse_demo_args
from sbctune.ui.main_window import MainWindow
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import ThemeManager

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
    known_hosts: Callable[[], KnownHosts] = KnownHosts,
) -> MainWindow:
    settings = AppSettings(app)
    theme = getattr(app, "_sbctune_theme", None)
    if theme is None:
        theme = ThemeManager(app, settings.theme)
        app._sbctune_theme = theme  # type: ignore[attr-defined]
    else:
        theme.apply(settings.theme)
    return MainWindow(history or History.open(), settings, theme, known_hosts)


def tune_gc() -> None:
    """Keep the garbage collector's full passes short while the window runs.

    After start-up the process holds several hundred thousand long-lived objects (Qt wrappers,
    pyqtgraph, asyncssh); every full collection would walk them all again, a pause the event
    loop feels. Freezing them moves them out of the collector's view (they live until exit
    anyway); the collector still runs for what is made afterwards.
    """
    gc.collect()
    gc.freeze()


def run_gui(args: list[str]) -> int:
    if "--self-test" in args:
        from sbctune.ui.selftest import run_self_test

        return run_self_test(args)
    try:
        demo_options = parse_demo_args(args) if "--demo" in args else None
    except UserError as exc:
        print(f"error: {exc.message}\n{exc.hint}", file=sys.stderr)
        return 2
    app = create_app()
    loop = event_loop(app)
    window = make_window(app)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    window.show()
    tune_gc()
    demo = Demo(window, demo_options) if demo_options is not None else None
    try:
        with loop:
            if demo is not None:
                window.runner.start(demo.run(), name="demo")
            run_until_done(loop, closed.wait())
    finally:
        if demo is not None:
            demo.close()
    return 0
