"""Walk 14: Results without a baseline said "Before and after" over a lone grey "After" (9c); a
"baseline" measured with the tuning in force compared as "no change" (2); History listed the
runs of "Keeping only what helps" all as "quick (tuned)" (7). What the user reads now."""

from __future__ import annotations

import datetime as dt

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel

from sbctune.history.records import RunRecord
from sbctune.measure.plans import presets
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.sample_data import _test
from tests.gui.history_support import compare_every_run, history_page

GOVERNOR = "cpu-governor-performance"
BUFFERS = "socket-buffers"


def _run(window: MainWindow, minutes: int, tweaks: list[str] | None, mean: float) -> RunRecord:
    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    start = dt.datetime(2026, 11, 29, 12, minutes, tzinfo=dt.timezone.utc)
    run = RunRecord(
        device_id=device.id, started_at=start, finished_at=start + dt.timedelta(seconds=40),
        plan_name="quick", nic="eth1", endpoint_kind="builtin", complete=True,
        tuning_state={"session": "20261129T121500Z-abcd", "tweaks": tweaks, "read_back": True}
        if tweaks else None,
        tests=[_test("pi_to_pc", mean), _test("pc_to_pi", 949.0)],
    )  # fmt: skip
    window.history.save_run(run)
    return run


def _results(window: MainWindow) -> ResultsPage:
    window.go("results")
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    return page


def _headers(page: ResultsPage) -> list[str]:
    table = page.table
    return [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]  # type: ignore[union-attr]


def test_results_without_a_baseline_say_so_and_offer_one(window: MainWindow) -> None:
    after = _run(window, 5, [GOVERNOR], 834.6)
    window.state.model.measured("after", after)
    page = _results(window)
    assert page.table_card.title.text() == "Nothing to compare with"
    assert page.no_baseline.isVisible()
    assert page.no_baseline.text().startswith(
        "There is no baseline in this session, so these figures have nothing to compare with"
    )
    assert "After" in _headers(page) and "Before" not in " ".join(_headers(page))
    # The lone "After" bars in the after's colour, not the before's grey.
    brush = page.chart.bars[0].opts["brush"]
    assert QColor(brush) == QColor(window.theme.colors.accent) != QColor(window.theme.colors.muted)
    assert page.baseline_button.isVisible()
    page.baseline_button.click()
    assert window.current_key() == "baseline"


def test_a_baseline_with_tuning_in_force_is_not_called_before(window: MainWindow) -> None:
    """The walk's run #3: the "baseline" (834.6, tuned) against the tuned run: "no change"."""
    tuned_baseline = _run(window, 0, [GOVERNOR], 834.6)
    after = _run(window, 5, [GOVERNOR], 834.0)
    window.state.model.measured("baseline", tuned_baseline)
    window.state.model.measured("after", after)
    page = _results(window)
    headers = _headers(page)
    assert "Before" not in headers and "With tuning in force" in headers, headers
    assert page.table_card.title.text() == "No baseline: both runs had tuning in force"
    note = page.no_baseline.text()
    assert note.startswith(f"Run {tuned_baseline.id} was measured with tuning in force: "
                           "CPU frequency governor: performance: it is not a baseline")  # fmt: skip
    assert page.baseline_button.isVisible()


def test_a_fair_before_and_after_is_unchanged(window: MainWindow) -> None:
    window.state.model.measured("baseline", _run(window, 0, None, 738.8))
    window.state.model.measured("after", _run(window, 5, [GOVERNOR], 834.6))
    page = _results(window)
    assert page.table_card.title.text() == "Before and after"
    assert _headers(page)[2:4] == ["Before", "After"]
    assert not page.no_baseline.isVisible() and not page.baseline_button.isVisible()


def test_the_baseline_page_labels_a_tuned_run(window: MainWindow) -> None:
    """A run the Pi read back as tuned is, on the Baseline page, never "the baseline"."""
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    window.go("baseline")
    tuned = _run(window, 0, [GOVERNOR], 834.6)
    page.show_record(tuned)
    assert page.status.text() == (
        f"Done: saved as run {tuned.id}. Measured with tuning in force (CPU frequency "
        "governor: performance): this run is not a baseline."
    )
    assert page.results_card.title.text() == (
        "Figures of this run: with tuning in force: CPU frequency governor: performance, "
        "not a baseline"
    )
    fair = _run(window, 5, None, 738.8)
    page.show_record(fair)
    assert page.status.text() == f"Done: saved as run {fair.id}." and (
        page.results_card.title.text() == "Figures of this run"
    )


def test_history_names_the_tweaks_of_each_run(window: MainWindow) -> None:
    """Tune & Measure's "Keeping only what helps": all tweaks, then each one alone."""
    baseline = _run(window, 0, None, 738.8)
    both = _run(window, 5, [GOVERNOR, BUFFERS], 834.6)
    alone = _run(window, 10, [BUFFERS], 760.0)
    page = history_page(window)
    plans = {}
    for row in range(page.table.rowCount()):
        run_cell, plan_cell = page.table.item(row, 1), page.table.item(row, 4)
        assert run_cell is not None and plan_cell is not None
        plans[run_cell.toolTip()] = plan_cell.toolTip()
    buffers = "Larger socket buffers and receive backlog"
    quick = presets()["quick"].title  # the plan as the plan box names it (s17 walk)
    assert plans[f"#{baseline.id}"] == quick
    assert plans[f"#{both.id}"] == (
        f"{quick} (with tuning in force: CPU frequency governor: performance, {buffers})"
    ), plans
    assert plans[f"#{alone.id}"] == f"{quick} (with tuning in force: {buffers})"
    compare_every_run(page)
    assert page.in_force.text().splitlines() == [
        f"#{baseline.id}: no tuning in force",
        f"#{both.id}: with tuning in force: CPU frequency governor: performance, {buffers}",
        f"#{alone.id}: with tuning in force: {buffers}",
    ]


def _connected(window: MainWindow) -> None:
    """The session as connected (no SSH is used: the page only reads the session's state)."""
    from typing import Any, cast

    from sbctune.workflow.state import ConnectedInfo

    class NoSsh:
        async def close(self) -> None:
            """The window closes its session at the end."""

    info = ConnectedInfo("pi@lab", "lab", "6.1", "pi", "passwordless", True)
    window.state.model.connected(cast(Any, NoSsh()), info, 1)


def test_measure_again_with_nothing_in_force_says_so(window: MainWindow) -> None:
    """Walk 15, problem 1: after "Revert, then measure the baseline" (or the guard ran out)
    Measure again said "now with the tuning in force" with Start enabled; its untuned run was
    the "After" of "Before and after" ("no change detected")."""
    from sbctune.tuning import AppliedSession
    from sbctune.tuning.model import TweakOutcome

    _connected(window)
    window.go("again")
    page = window.page("again")
    assert isinstance(page, MeasurePage)
    intro = page.findChild(QLabel, "pageIntro")
    assert intro is not None and "tuning in force" not in intro.text()
    assert page.in_force.isVisible() and not page.start_button.isVisible()
    assert page.in_force_text.text().startswith(
        "Nothing is in force on the Pi: this would be a second baseline"
    )
    assert page.revert_first_button.text() == "Go to &Tune" and page.as_is_button.isEnabled()
    page.revert_first_button.click()
    assert window.current_key() == "tune"
    # With the tuning kept, the page is as before: Start, "now with the tuning in force".
    applied = AppliedSession("20261129T121500Z-abcd", 0.0, [TweakOutcome(GOVERNOR, "applied")])
    window.state.model.tuning_applied(applied)
    window.state.model.tuning_confirmed()
    window.go("again")
    assert not page.in_force.isVisible() and page.start_button.isVisible()
    assert intro.text() == "The same plan as the baseline, now with the tuning in force."
    # "Measure as it is": the run says what it is, and Results never call it "After".
    page.show_record(_run(window, 5, None, 737.0))
    assert "nothing in force" in page.status.text() and "second baseline" in page.status.text()
    window.state.model.measured("baseline", _run(window, 0, None, 737.0))
    window.state.model.measured("after", _run(window, 5, None, 735.9))
    results = _results(window)
    assert results.table_card.title.text() == "Two runs with nothing in force"
    assert "After" not in _headers(results)
    assert results.no_baseline.isVisible()
    assert "second baseline" in results.no_baseline.text()


def test_a_finished_run_shows_its_done_line(window: MainWindow) -> None:
    """Walk 15: after "Measure as it is" the Baseline page stayed scrolled mid-page, its "Done.
    … this run is not a baseline" line above the view."""
    from PySide6.QtWidgets import QApplication

    window.resize(800, 600)
    window.show()
    window.go("baseline")
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    for card in page.plot_cards:  # as while it ran: the plots below the figures
        card.show()
    QApplication.processEvents()
    bar = page.verticalScrollBar()
    bar.setValue(bar.maximum())
    page.show_record(_run(window, 0, [GOVERNOR], 834.6))
    for _ in range(3):
        QApplication.processEvents()
    top = page.status.mapTo(page.widget(), page.status.rect().topLeft()).y()
    assert bar.value() <= top <= bar.value() + page.viewport().height(), (top, bar.value())
    assert "not a baseline" in page.status.text()
    window.close()
