"""GUI start-up: the Qt application, qasync's event loop and the main window."""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.ui.runtime import create_app, event_loop, make_window, paint_first, run_until_done
from sbctune.wording import spoken

if TYPE_CHECKING:
    from sbctune.ui.demo import Demo

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
    """The app: its window on the screen first, filled on the next turn of the event loop
    (the slow imports come then), then the demo if asked for."""
    if "--self-test" in args:
        from sbctune.ui.selftest import run_self_test

        return run_self_test(args)
    demo_options = None
    if "--demo" in args:
        from sbctune.ui.demo import parse_demo_args

        try:
            demo_options = parse_demo_args(args)
        except UserError as exc:
            print(f"error: {spoken(exc.message)}\n{spoken(exc.hint)}", file=sys.stderr)
            return 2
    app = create_app()
    window = make_window(app, staged=True)
    demos: list[Demo] = []

    def filled() -> None:
        tune_gc()
        if demo_options is not None:
            from sbctune.ui.demo import Demo

            demos.append(Demo(window, demo_options))
            window.runner.start(demos[0].run(), name="demo")

    window.show_fitted(then=filled)
    # The Connect page on the screen first; then asyncio and qasync (a few hundred ms of
    # imports on a busy machine), while the user can already read it (what they type is kept).
    paint_first(app, window)
    window.start_preloading()  # beside the event loop's imports
    import asyncio

    from sbctune.ui.stop_signals import SignalStop

    loop = event_loop(app)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    stopping = SignalStop(window.close_quietly)
    try:
        with loop:
            run_until_done(loop, closed.wait())
    finally:
        stopping.close()
        for demo in demos:
            demo.close()
    return stopping.exit_code(demos[0].exit_code if demos else 0)
