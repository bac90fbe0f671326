"""GUI test helpers: the Qt application with qasync's loop, a window on a private history and
known_hosts, and `drive(coro)` to run a scenario on the window's own event loop."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.history import History
from sbctune.lab.model import LabInfo
from sbctune.remote import KnownHosts
from sbctune.ui.app import create_app, event_loop, make_window, run_until_done
from sbctune.ui.main_window import MainWindow
from tests.conftest import OUTPUT_DIR
from tests.lab_support import governor_and_session

T = TypeVar("T")
SCREENSHOTS = OUTPUT_DIR / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def gui_app() -> Iterator[QApplication]:
    """Made first, for every GUI test: a QGuiApplication made elsewhere (PNG rendering makes
    one when none exists) would forbid the QApplication the window needs."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = create_app()
    yield app
    loop = event_loop(app)
    if not loop.is_closed():
        loop.close()  # stops qasync's worker threads before Qt is torn down


@pytest.fixture
def drive(gui_app: QApplication) -> Callable[..., Any]:
    """Run a coroutine on the qasync loop (the GUI's loop) with a time limit."""
    loop = event_loop(gui_app)

    def run(coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        return run_until_done(loop, asyncio.wait_for(coro, timeout))

    return run


def forget_last_connection() -> None:
    """Each test's window starts as on a first run: the settings file lives as long as the test
    session, and a Pi remembered by an earlier test (a lab connection, test_remembered) makes a
    window read the keyring on show, a task that a test's bare processEvents() then runs outside
    the asyncio loop ("no running event loop" in the status bar)."""
    from sbctune.ui.settings import AppSettings

    keys = ("host", "port", "user", "auth", "key_file")
    AppSettings().remember_connection(dict.fromkeys(keys, ""))


@pytest.fixture
def window(
    gui_app: QApplication, drive: Callable[..., Any], tmp_path: Path
) -> Iterator[MainWindow]:
    history = History.open(tmp_path / "history.sqlite3")
    known = tmp_path / "known_hosts"
    forget_last_connection()
    earlier = set(QApplication.topLevelWidgets())
    win = make_window(
        gui_app,
        history=history,
        known_hosts=lambda: KnownHosts(read_from=[], write_to=known),
    )
    win.settings.default_plan = "quick"
    win.settings.calibrate_flow = False  # the settings file lives as long as the test session
    win.show()
    try:
        yield win
    finally:

        async def close() -> None:
            await win.runner.shutdown()
            await win.connection.close_session()

        drive(close(), timeout=30)
        win._closing = True
        win.close()
        win.deleteLater()
        history.close()
        forget_widgets(earlier)


def forget_widgets(earlier: set[QWidget]) -> None:
    """Delete the widgets a test left: the window (deleteLater alone waited for a later event
    loop) and the top-level ones made since `earlier` (its menus' and combo boxes' popups,
    about 14 a window). Every window sets a style sheet on the application, which re-styles
    every live widget: with them kept, each test's window took longer to make (1-3 s against
    0.2 s once about a thousand were left)."""
    for widget in set(QApplication.topLevelWidgets()) - earlier:
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def pi_reads(lab: LabInfo, tmp_path: Path) -> Callable[[], Awaitable[tuple[str, str | None]]]:
    """`await pi_reads()`: what the lab Pi itself reads back (cpu0's governor, the state of its
    newest tuning session or None), over the test's own connection with its own known_hosts,
    so the window's still asks to trust the key."""
    mine = tmp_path / "mine"
    mine.mkdir()
    return lambda: governor_and_session(lab, mine)


async def until(predicate: Callable[[], object], timeout: float, what: str) -> None:
    """Wait (letting the GUI run) until `predicate()` is true."""
    loop = asyncio.get_event_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.05)
