"""The Qt binding must not leak references to True: PySide6 6.12.0 drops one at every emit()
of a Python-defined signal, and a session with live plots (thousands of emits) then aborts
with "Fatal Python error: bool_dealloc". pyproject.toml keeps such a release out; this test
says so if one comes back. (On Python 3.12+ True is immortal and the count never moves.)"""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QPushButton


class _Emitter(QObject):
    flag = Signal(bool)
    text = Signal(str)


_EMITS = 3000


def _counts(gui_app: QApplication) -> tuple[int, int]:
    # Other objects in the process (pending events, cyclic garbage) hold and drop True too:
    # settle them first so the count moves only by what the emits do.
    gui_app.processEvents()
    gc.collect()
    return sys.getrefcount(True), sys.getrefcount(False)


def test_emitting_signals_keeps_true_and_false_alive(gui_app: QApplication) -> None:
    emitter = _Emitter()
    button = QPushButton("x")
    emitter.flag.connect(button.setEnabled)  # into a Qt slot
    emitter.text.connect(lambda _t: None)  # into Python
    before = _counts(gui_app)
    for _ in range(_EMITS):
        emitter.flag.emit(False)
        emitter.flag.emit(True)
        emitter.text.emit("progress")
    after = _counts(gui_app)
    # The broken release drops one reference per emit (thousands here); a busy process moves
    # the count by a few dozen at most (CI once saw 21), so the bar is one per ten emits.
    bar = _EMITS // 10
    assert before[0] - after[0] < bar, f"True lost {before[0] - after[0]} references"
    assert before[1] - after[1] < bar, f"False lost {before[1] - after[1]} references"
