"""A warning of the core (here: a history record that cannot be read is left out) is shown
in the window's status bar, escaped; the rest of the history still lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage
from tests.gui.conftest import until
from tests.unit.export.seed_runs import seed_history


def test_a_left_out_history_record_is_told_in_the_status_bar(
    window: MainWindow, drive: Any, tmp_path: Path
) -> None:
    seeded, ids = seed_history(tmp_path / "history.sqlite3")  # the window's history file
    seeded._conn.execute("UPDATE runs SET plan_json = ? WHERE id = ?", ("[" * 5000, ids[0]))
    seeded.close()

    page = window.page("history")
    assert isinstance(page, HistoryPage)

    async def look() -> None:
        page.shown()  # the History page opened: the device's runs are read
        listed = [r.id for r in page.runs]
        assert ids[0] not in listed and ids[1] in listed
        await until(lambda: "Warning: " in window.statusBar().currentMessage(), 5, "the notice")

    drive(look())
    shown = window.statusBar().currentMessage()
    assert f"run {ids[0]} cannot be read" in shown and "left out" in shown
    assert not any(ord(c) < 32 for c in shown)
