"""The Qt binding must not leak references to True: PySide6 6.12.0 drops one at every emit()
of a Python-defined signal, and a session with live plots (thousands of emits) then aborts
with "Fatal Python error: bool_dealloc". pyproject.toml keeps such a release out; this test
says so if one comes back. (On Python 3.12+ True is immortal and the count never moves.)"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QPushButton


class _Emitter(QObject):
    flag = Signal(bool)
    text = Signal(str)


def test_emitting_signals_keeps_true_and_false_alive(gui_app: QApplication) -> None:
    emitter = _Emitter()
    button = QPushButton("x")
    emitter.flag.connect(button.setEnabled)  # into a Qt slot
    emitter.text.connect(lambda _t: None)  # into Python
    before = sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(300):
        emitter.flag.emit(False)
        emitter.text.emit("progress")
    gui_app.processEvents()
    after = sys.getrefcount(True), sys.getrefcount(False)
    assert after[0] >= before[0] - 5, f"True lost {before[0] - after[0]} references"
    assert after[1] >= before[1] - 5, f"False lost {before[1] - after[1]} references"
