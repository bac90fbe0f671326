"""Walk 14, problem 2, in the real window against the lab: after Apply → Keep, the Baseline page
says the tuning is in force (as the session read it back) instead of "before any change", and
offers the two honest choices. "Measure as it is" gives a run labelled "with tuning in force"
(never the baseline); "Revert, then measure the baseline" puts the tuning back on the Pi, reads
it back, and only then measures a baseline that is one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.measure.plans import plan_named
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage
from sbctune.ui.pages.inspect_page import InspectPage
from sbctune.ui.pages.results_page import ResultsPage
from tests.gui.conftest import SCREENSHOTS, until
from tests.gui.lab_steps import PiReads, apply_and_keep, connect_and_inspect, measuring_with

pytestmark = [pytest.mark.lab, pytest.mark.slow]

SHORT = plan_named("quick").with_overrides(duration=4, omit=1, trials=1)


def test_a_baseline_after_keep_says_the_tuning_is_in_force(
    lab: LabInfo,
    window: MainWindow,
    drive: Callable[..., Any],
    pi_reads: PiReads,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    baseline = measuring_with(window, "baseline", SHORT, monkeypatch)

    async def scenario() -> None:
        before, _ = await pi_reads()
        await connect_and_inspect(window, lab)
        window.go("baseline")
        assert not baseline.in_force.isVisible() and baseline.start_button.isVisible()
        await apply_and_keep(window, pi_reads)

        # Inspect's "Measure only" opens the Baseline page, and does not start it unasked.
        inspect = window.page("inspect")
        assert isinstance(inspect, InspectPage)
        window.go("inspect")
        inspect.measure_button.click()
        assert window.current_key() == "baseline" and not window.baseline.running
        assert baseline.in_force.isVisible(), "the walk: no word about the tuning in force"
        notice = baseline.in_force_text.text()
        assert notice.startswith("In force now: "), notice
        assert "CPU frequency governor: performance" in notice
        assert "; kept until the Pi restarts." in notice and "not a baseline" in notice
        assert not baseline.start_button.isVisible()
        assert baseline.revert_first_button.isEnabled() and baseline.as_is_button.isEnabled()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(SCREENSHOTS / "baseline-tuning-in-force.png"))

        # Measure as it is: the run is the tuned figure, and says so.
        baseline.as_is_button.click()
        await until(lambda: window.baseline.running, 10, "the run to start")
        await until(lambda: not window.baseline.running, 180, "the run as it is")
        await window.baseline.wait()
        assert not baseline.problem.isVisible(), baseline.problem.message.text()
        as_is = window.state.baseline
        assert as_is is not None and as_is.id is not None
        assert "cpu-governor-performance" in (as_is.tuning_state or {}).get("tweaks", [])
        assert "this run is not a baseline" in baseline.status.text()
        assert "with tuning in force" in baseline.results_card.title.text()
        assert baseline.in_force.isVisible(), "still in force: the next baseline asks again"
        window.go("results")
        results = window.page("results")
        assert isinstance(results, ResultsPage)
        assert results.table_card.title.text() == "Measured with tuning in force"
        assert results.no_baseline.isVisible() and results.baseline_button.isVisible()
        window.go("history")
        history = window.page("history")
        assert isinstance(history, HistoryPage)
        row = next(r for r, run in enumerate(history.runs) if run.id == as_is.id)
        plan_cell = history.table.item(row, 4)
        assert plan_cell is not None
        listed = plan_cell.toolTip()  # the plan's title (SHORT's), then the tweaks read back
        assert listed.startswith(f"{SHORT.title} (with tuning in force: "), listed
        assert "tuned" not in listed
        assert "CPU frequency governor: performance" in listed, listed

        # Revert, then measure the baseline: the Pi is put back and read back first.
        window.go("baseline")
        baseline.revert_first_button.click()
        await until(lambda: window.baseline.running, 10, "the revert and run to start")
        await until(lambda: not window.baseline.running, 180, "the reverted baseline")
        await window.baseline.wait()
        assert not baseline.problem.isVisible(), baseline.problem.message.text()
        assert await pi_reads() == (before, None)
        fair = window.state.baseline
        assert fair is not None and fair.id != as_is.id
        assert fair.tuning_state is None, fair.tuning_state  # read back: untuned
        assert window.state.tuning_state == "reverted"
        assert baseline.status.text() == (
            f"Done: saved as run {fair.id}. The tuning was put back first and read back: "
            "nothing was in force."
        )
        assert baseline.results_card.title.text() == "Figures of this run"
        assert not baseline.in_force.isVisible() and baseline.start_button.isVisible()
        assert window.grab().save(str(SCREENSHOTS / "baseline-after-revert.png"))
        window.go("results")
        assert results.table_card.title.text() == "Before and after"
        assert not results.no_baseline.isVisible()

    drive(scenario(), timeout=600)
