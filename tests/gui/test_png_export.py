"""PNG charts: the core's SVG drawn by QtSvg, registered the way the launcher does it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from sbctune.export import export, gather, unregister
from sbctune.ui.launcher import main as launcher_main
from sbctune.ui.png_export import register
from tests.unit.export.seed_runs import seed_history


def test_png_export_draws_the_charts(tmp_path: Path) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    register()
    try:
        with history:
            path = export("png", gather(history, ids), tmp_path / "charts.png")
    finally:
        unregister("png")
    image = QImage(str(path))
    assert not image.isNull()
    assert image.width() == 1440 and image.height() > 2000  # three charts, at 2x
    # Not blank: the runs' bars are drawn, in the app's chart's colours (walk 14: the PNG had
    # blue/orange where the app shows grey/blue).
    colors = {image.pixelColor(x, y).name() for x in range(0, 1440, 8) for y in range(0, 700, 8)}
    assert {"#6b6b70", "#2563eb"} <= colors, sorted(colors)


def test_the_export_colours_are_the_app_chart_colours(gui_app: object) -> None:
    from sbctune.compare.charts import RUN_PALETTE
    from sbctune.ui.theme import LIGHT
    from sbctune.ui.widgets.compare_chart import _palette

    assert [c.lower() for c in _palette(LIGHT, len(RUN_PALETTE))] == list(RUN_PALETTE)


def test_the_sbctune_program_can_export_png(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    history, ids = seed_history(tmp_path / "history.sqlite3")
    history.close()
    out = tmp_path / "c.png"
    try:
        assert launcher_main(["export", str(ids[0]), "-f", "png", "-o", str(out)]) == 0
    finally:
        unregister("png")
    assert out.read_bytes()[:4] == b"\x89PNG"
