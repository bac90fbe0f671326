"""Walk 27 at 800 x 600: a cancelled baseline said "The tests measured so far are saved as run
1, marked incomplete", the CLI says "Saved as run 1 in the history", but a baseline that ran
to its end said only "Done.": the user had to find it among History's runs. A stored run's
words say which run it is."""

from __future__ import annotations

import datetime as dt

from sbctune.history.records import RunRecord, TestRecord
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_endings import done_words
from sbctune.ui.pages.measure_page import MeasurePage

START = dt.datetime(2026, 12, 1, 4, 50, tzinfo=dt.timezone.utc)


def _run(window: MainWindow, complete: bool) -> RunRecord:
    device = window.history.add_device("198.18.8.2", 22, "pi")
    assert device.id is not None
    test = TestRecord("pi_to_pc", "half", mean_mbps=301.9, trial_means=[301.0, 302.0, 302.7])
    run = RunRecord(device.id, START, "quick", finished_at=START, nic="eth0", complete=complete,
                    tests=[test])  # fmt: skip
    window.history.save_run(run)
    return run


def test_a_finished_baseline_names_its_run(window: MainWindow) -> None:
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    window.go("baseline")
    run = _run(window, complete=True)
    page.show_record(run)
    assert run.id is not None
    assert page.status.text() == f"Done: saved as run {run.id}."
    part = _run(window, complete=False)
    page.show_record(part)
    assert page.status.text() == (
        f"Done, but some tests did not complete (see below); saved as run {part.id}."
    )


def test_a_run_not_stored_says_done_alone() -> None:
    run = RunRecord(1, START, "quick", complete=True)
    assert done_words(run) == "Done."
