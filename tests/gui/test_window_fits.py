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
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QVBoxLayout, QWidget

from tests.gui.conftest import SCREENSHOTS
from tests.gui.fit_script import problems_of

SCRIPT = Path(__file__).with_name("fit_script.py")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("width", "height", "scale"),
    [(800, 600, "1"), (800, 600, "1.5"), (1280, 800, "1")],
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
