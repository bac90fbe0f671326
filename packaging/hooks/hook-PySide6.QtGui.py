"""Replaces PyInstaller's hook for PySide6.QtGui (user hooks take priority): the same
collection, minus the Qt plugins sbctune never loads (spec_support.QT_DROP).

Filtering here, before PyInstaller scans the plugins' own dependencies, is what keeps e.g. the
GTK platform theme from dragging GTK, cairo and pango into the bundle.
"""

import sys
from pathlib import Path

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import spec_support

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)
binaries = spec_support.drop_unused_sources(binaries)
datas = spec_support.drop_unused_sources(datas)
