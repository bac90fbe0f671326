"""Open a file or folder with the desktop's own program, and say so when none did.

On Linux Qt hands the path to `xdg-open` and reports success as soon as that has *started*:
on a desktop with no file manager (a bare window manager) xdg-open then fails with "no method
available" and nothing is shown (walk 14, problem 6). There the app runs xdg-open itself, without
blocking, and reports a failure from its exit status; elsewhere Qt's answer is the answer."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices

# xdg-open's own exit statuses (xdg-utils): 1 syntax, 2 file missing, 3 no tool found,
# 4 the action failed. Any of them within this time is its answer, not the opened program's.
ANSWER_WITHIN_MS = 15_000


class DesktopOpener(QObject):
    failed = Signal(str)  # the path nothing opened

    def open(self, path: Path) -> None:
        xdg_open = shutil.which("xdg-open") if sys.platform.startswith("linux") else None
        if xdg_open is None:
            if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
                self.failed.emit(str(path))
            return
        process = QProcess(self)
        timer = QTimer(process)
        timer.setSingleShot(True)
        timer.start(ANSWER_WITHIN_MS)

        def finished(code: int, _status: QProcess.ExitStatus) -> None:
            if code != 0 and timer.isActive():
                self.failed.emit(str(path))
            process.deleteLater()

        def error(problem: QProcess.ProcessError) -> None:
            if problem == QProcess.ProcessError.FailedToStart:
                self.failed.emit(str(path))
                process.deleteLater()

        process.finished.connect(finished)
        process.errorOccurred.connect(error)
        # Its messages would only go to the terminal: the app says what failed itself.
        process.setProcessChannelMode(QProcess.ProcessChannelMode.ForwardedOutputChannel)
        process.setStandardErrorFile(QProcess.nullDevice())
        # An argument list, no shell; the path is the app's own export folder or file.
        process.start(xdg_open, [str(path)])
