"""SIGTERM and SIGHUP close the desktop app as its window's Close does (walk 15: `kill PID` or
the desktop session ending ended it at once): running work is cancelled (iperf3 stopped on both
sides, the one-click flow reverting its own tuning), the connection closed, and the process
exits quietly with 128 + the signal's number. No question is asked: tuning armed on the Pi is
left to its guard, which reverts it as designed.

Python runs a signal handler only when the interpreter gets control, and Qt's event loop waits
in C++: the signal's byte written to a socket (`signal.set_wakeup_fd`) wakes a QSocketNotifier,
whose slot lets the handler run at once.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier, QTimer

STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class SignalStop(QObject):
    """Calls `stop()` once, on the Qt loop, when a stopping signal arrives; `received` is it."""

    def __init__(self, stop: Callable[[], None]) -> None:
        super().__init__()
        self._stop = stop
        self.received: signal.Signals | None = None
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        try:
            signal.set_wakeup_fd(self._writer.fileno())
        except ValueError:  # not the main thread: no signals here
            return
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._drain)
        for sig in STOPPING:
            signal.signal(sig, self._handle)

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            self._reader.recv(512)

    def _handle(self, signum: int, _frame: object) -> None:
        if self.received is not None:  # a second signal while closing: the first one counts
            return
        self.received = signal.Signals(signum)
        QTimer.singleShot(0, self._stop)  # out of the handler, on the loop

    def exit_code(self, code: int) -> int:
        return 128 + int(self.received) if self.received is not None else code

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)
        for sig in STOPPING:
            with contextlib.suppress(ValueError):
                signal.signal(sig, signal.SIG_DFL)
        self._reader.close()
        self._writer.close()
