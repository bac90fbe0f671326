"""GUI start-up: the Qt application, qasync's event loop and the main window."""

from __future__ import annotations

import asyncio
import gc
import sys

from sbctune.errors import UserError
from sbctune.ui.demo import Demo, parse_demo_args
from sbctune.ui.runtime import create_app, event_loop, make_window, run_until_done
from sbctune.ui.selftest import run_self_test

__all__ = ["create_app", "event_loop", "make_window", "run_gui", "run_until_done", "tune_gc"]


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
    window.show_fitted()
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
    return demo.exit_code if demo is not None else 0
