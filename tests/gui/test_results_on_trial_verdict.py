"""Tuning on trial, measured again by hand: Results says what the measurement showed before
the user presses Keep (walk 17, pi5-macb at 800×600: "press Keep to keep these settings" over
a table saying "no change detected" in both directions, and Keep kept all three tweaks)."""

from __future__ import annotations

import datetime as dt
import time

from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord, TestRecord
from sbctune.tuning import AppliedSession
from sbctune.ui.main_window import MainWindow

SESSION = "20261129T194900Z-abcdef"


def _run(run_id: int, trials: tuple[float, float, float], session: str | None) -> RunRecord:
    tests = [
        TestRecord(direction=d, mode="half", mean_mbps=sum(trials) / 3, trial_means=list(trials))
        for d in ("pi_to_pc", "pc_to_pi")
    ]
    when = dt.datetime(2026, 11, 29, 19, 48 + run_id, tzinfo=dt.timezone.utc)
    tuning = {"session": session, "tweaks": ["cpu-governor-performance"]} if session else None
    return RunRecord(
        1, when, "quick", nic="eth0", tests=tests, id=run_id, tuning_state=tuning, complete=True
    )


def _results_text(window: MainWindow, after: tuple[float, float, float], session: str) -> str:
    model = window.state.model
    model.tuning_applied(AppliedSession(SESSION, time.time() + 60, [], guard_seconds=60))
    model.measured("baseline", _run(1, (943.0, 944.0, 943.8), None))
    model.measured("after", _run(2, after, session))
    window.go("results")
    QApplication.processEvents()
    return window.results_page.tuning_text.text()


def test_no_gain_on_trial_says_so_before_keep(window: MainWindow) -> None:
    text = _results_text(window, (938.0, 940.0, 938.7), SESSION)
    assert "press Keep" in text
    assert "no gain beyond noise in any direction" in text
    assert "Revert puts the Pi back as it was" in text


def test_a_gain_on_trial_is_named(window: MainWindow) -> None:
    text = _results_text(window, (990.0, 991.0, 990.5), SESSION)
    assert "Measured against the baseline, it helped: Pi → PC" in text


def test_a_run_under_other_tuning_says_nothing_of_this_trial(window: MainWindow) -> None:
    text = _results_text(window, (990.0, 991.0, 990.5), "20261129T100000Z-000000")
    assert "Measured against the baseline" not in text
