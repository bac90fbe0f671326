"""Runtime hook of the packaged sbctune, run before the entry script.

- qasync and pyqtgraph pick their Qt binding by probing imports; the bundle holds PySide6
  only, so say so instead of letting them probe.
- A windowed executable on Windows (and the macOS .app when started from Finder) has no
  standard streams: PyInstaller leaves them None, and code that writes to them
  (faulthandler, some libraries' warnings) would fail. Send them to the null device.
"""

import os
import sys

os.environ.setdefault("QT_API", "pyside6")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

if sys.stdout is None:
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
if sys.stderr is None:
    sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
