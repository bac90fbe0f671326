"""The s17 walk (Pi 5 macb, 800 x 600): History's Plan column showed the internal name
"quick" where the plan box and Settings say "Quick (3 trials × 5 s per direction)"."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.measure.plans import plan_title, presets
from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data


def test_history_names_each_runs_plan_by_its_title(
    window: MainWindow, gui_app: QApplication
) -> None:
    load_sample_data(window)  # two runs of the quick plan
    window.go("history")
    gui_app.processEvents()
    table = window.page("history").table  # type: ignore[attr-defined]
    plans = [table.item(r, 4).toolTip() for r in range(table.rowCount())]
    quick = presets()["quick"].title
    assert plans and all(p.startswith(quick) for p in plans), plans


def test_a_stored_plan_title_wins_and_an_unknown_name_shows_as_it_is() -> None:
    assert plan_title("quick", {"title": "Quick, 20 s per test"}) == "Quick, 20 s per test"
    assert plan_title("quick", {"title": 7}) == presets()["quick"].title
    assert plan_title("custom-old") == "custom-old"
