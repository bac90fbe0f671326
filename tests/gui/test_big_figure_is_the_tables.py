"""Walk 15, problem 5: once a run ended, the big "this test" card showed the last trial's
figure (833.3 Mbit/s) while the table under it showed the mean of the trials (830.6) for the
same direction: two numbers for one thing. Once the run is stored the card shows the table's
figure and says which figure it is."""

from __future__ import annotations

from datetime import datetime, timezone

from sbctune.history.records import RunRecord, TestRecord
from sbctune.measure.outcome import DirectionOutcome
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import TestFinished as Finished
from sbctune.measure.runner import TestStarted as Started
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow

PLAN = plan_named("quick")


def _record() -> RunRecord:
    return RunRecord(
        device_id=1,
        started_at=datetime(2026, 11, 29, 16, 0, tzinfo=timezone.utc),
        plan_name="quick",
        complete=True,
        tests=[
            TestRecord("pi_to_pc", "half", mean_mbps=830.6, trial_means=[827.9, 833.3]),
            TestRecord("pc_to_pi", "half", mean_mbps=944.0, trial_means=[942.3, 945.7]),
        ],
        id=7,
    )


def _table_mean(window: MainWindow, direction: str) -> str:
    table = window.again_page.table
    for row in range(table.rowCount()):
        if table.item(row, 0).text() == direction:
            return table.item(row, 2).text()
    raise AssertionError(direction)


def test_the_big_figure_is_the_tables_mean_once_stored(window: MainWindow) -> None:
    page = window.again_page
    ticks = iter(float(x) for x in range(10_000))
    live = LiveMeasurement(PLAN, 1000.0, clock=lambda: next(ticks))
    page.attach(live)
    last_trials = {"pi_to_pc": 833.3, "pc_to_pi": 945.7}
    for i, spec in enumerate(PLAN.tests):
        live.feed(Started(i, spec))
        outcomes = tuple(
            DirectionOutcome(d, spec.mode, mean_mbps=last_trials[d], complete=True)
            for d in spec.directions
        )
        live.feed(Finished(i, spec, outcomes))
    page.refresh()
    assert page.now_pi_to_pc.text() == "833.3 Mbit/s"  # while running: this test's figure
    page.show_record(_record())
    assert page.now_pi_to_pc.text() == "830.6 Mbit/s"
    assert page.now_pc_to_pi.text() == "944.0 Mbit/s"
    assert _table_mean(window, "Pi → PC") == "830.6"
    titles = [card.title.text() for card, _big in page.figure_cards]
    assert titles == ["Pi → PC, mean of 2 trials", "PC → Pi, mean of 2 trials"]
    page.set_units()  # a units change redraws from the stored run, not the last trial
    assert page.now_pi_to_pc.text() == "830.6 Mbit/s"
    page.attach(LiveMeasurement(PLAN, 1000.0, clock=lambda: next(ticks)))  # a new run
    title = page.figure_cards[0][0].title  # a short window shows it shortened while running
    assert (title.property("full_title") or title.text()) == "Pi → PC, this test"


def test_a_direction_the_stopped_run_never_reached_says_not_measured(window: MainWindow) -> None:
    # walk19: Cancel during the first Pi → PC test; the cards read "Pi → PC, this run" and
    # "PC → Pi, this test" over a dash, as if a PC → Pi test were still on.
    page = window.again_page
    live = LiveMeasurement(PLAN, 1000.0, clock=lambda: 0.0)
    page.attach(live)
    stopped = _record()
    stopped.complete = False
    stopped.tests = [TestRecord("pi_to_pc", "half", mean_mbps=939.7, complete=False)]
    page.show_record(stopped)
    titles = [card.title.text() for card, _big in page.figure_cards]
    assert titles == ["Pi → PC, this run", "PC → Pi, not measured"]
    assert page.now_pc_to_pi.text() == "–"
