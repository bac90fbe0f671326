"""Every page fits a small laptop's window: 800 × 600, at 100 % and at 150 % scaling (a 1366-px
laptop at 150 % gives about that), and a large one (1280 × 800). Nothing is wider than its
page's viewport (pages have no horizontal scrollbar: anything wider is cut off at the right),
no label or button is narrower than its text, no wrapped label shorter than its lines.

Screenshots of every page at each size go to tests/output/screenshots/fit/ (look at them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QVBoxLayout, QWidget

from sbctune.ui.window_fit import PREFERRED, first_geometry
from tests.gui.conftest import SCREENSHOTS
from tests.gui.fit_script import problems_of

SCRIPT = Path(__file__).with_name("fit_script.py")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("width", "height", "scale"),
    [
        (800, 600, "1"),
        (800, 600, "1.5"),
        # 1366 x 768 px at 150 %: 911 x 512 of Qt's logical px, less a 48 px taskbar
        (911, 480, "1.5"),
        (1280, 800, "1"),
    ],
)
def test_every_page_fits(width: int, height: int, scale: str) -> None:
    shots = SCREENSHOTS / "fit"
    env = {k: v for k, v in os.environ.items() if k != "QT_SCALE_FACTOR"}
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), str(width), str(height), scale, str(shots)],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT,
    )  # fmt: skip
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, proc.stdout + proc.stderr[-3000:]
    result = json.loads(lines[-1].removeprefix("RESULT "))
    assert result["window"] == [width, height]  # no page forces the window wider
    pages = result["pages"]
    assert {"connect", "baseline", "tune", "results", "settings"} <= set(pages)
    cut = {page: found for page, found in pages.items() if found}
    assert not cut, f"at {width}x{height}, scale {scale}: {json.dumps(cut, indent=1)}"
    for page in pages:
        assert (shots / f"fit-{width}x{height}@{scale}-{page}.png").is_file()


@pytest.mark.parametrize(
    ("screen", "maximized"),
    [
        ((800, 600), True),
        ((911, 480), True),  # 1366 x 768 at 150 %, less the taskbar
        ((1280, 752), True),  # 1280 x 800 less a taskbar: 780 px of window do not fit
        ((1920, 1040), False),
    ],
)
def test_the_first_window_fits_the_screen(screen: tuple[int, int], maximized: bool) -> None:
    available = QRect(0, 0, *screen)
    rect, maximize = first_geometry(available)
    assert maximize == maximized
    assert available.contains(rect), (rect, available)
    if not maximize:
        assert rect.size() == PREFERRED and rect.center() == available.center()


def test_the_check_sees_content_wider_than_the_page(gui_app: QApplication) -> None:
    page = QScrollArea()
    page.setWidgetResizable(True)
    inner = QWidget()
    layout = QVBoxLayout(inner)
    wide = QLabel("a line that does not wrap " * 8)
    layout.addWidget(wide)
    page.setWidget(inner)
    page.resize(300, 200)
    page.show()
    for _ in range(3):
        gui_app.processEvents()
    found = problems_of(page, page)
    page.close()
    assert any("viewport" in f for f in found), found
