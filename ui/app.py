"""GUI start-up: the Qt application, qasync's event loop and the main window."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

import sbctune


class MainWindow(QMainWindow):
    """Placeholder main window until the GUI issue lands the wizard."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(f"sbctune {sbctune.__version__}")
        label = QLabel(
            "sbctune: the guided wizard is being built.\n"
            "Every step is available from the command line: run `sbctune --help`."
        )
        label.setMargin(24)
        self.setCentralWidget(label)
        self.resize(640, 360)


def run_gui(args: list[str]) -> int:
    self_test = "--self-test" in args
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.show()
    if self_test:
        # Exit as soon as the window has been shown once by the event loop.
        QTimer.singleShot(0, app.quit)
    return int(app.exec())
