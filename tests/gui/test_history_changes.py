"""History's comparison says what changed on the Pi between the runs, next to the figures."""

from __future__ import annotations

import datetime as dt

from sbctune.history.records import RunRecord
from sbctune.measure.plans import presets
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage
from sbctune.ui.sample_data import _test
from tests.gui.history_support import compare_every_run, history_page


def _run(device_id: int, minutes: int, governor: str, tweaks: list[str] | None) -> RunRecord:
    start = dt.datetime(2026, 11, 23, 10, minutes, tzinfo=dt.timezone.utc)
    return RunRecord(
        device_id=device_id, started_at=start, finished_at=start + dt.timedelta(seconds=40),
        plan_name="quick", nic="eth1", endpoint_kind="builtin", complete=True,
        tuning_state={"session": "s1", "tweaks": tweaks} if tweaks else None,
        pi_state={"governor/policy0": governor, "mtu/eth1": "1500"},
        tests=[_test("pi_to_pc", 736.0), _test("pc_to_pi", 949.0)],
    )  # fmt: skip


def test_the_comparison_lists_the_settings_that_changed(window: MainWindow) -> None:
    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    runs = [
        _run(device.id, 0, "ondemand", None),
        _run(device.id, 5, "performance\x1b[2J", ["cpu-governor-performance"]),
    ]
    for run in runs:
        window.history.save_run(run)
    page = history_page(window)
    compare_every_run(page)
    text = page.changes.text()
    assert text.startswith(f"#{runs[0].id} → #{runs[1].id}:\n  ")
    governor = "CPU frequency governor: performance"
    assert f"tweaks in force: none → {governor} (tuning applied earlier)" in text
    policy = "CPU frequency governor of policy0 (governor/policy0)"
    assert f"{policy}: ondemand → performance\\u001b[2J" in text  # escaped, not raw
    assert "mtu/eth1" not in text  # the same in both runs


def _group(idle: list[float], loaded: list[float]) -> dict[str, object]:
    return {"idle_ms": idle, "loaded_ms": loaded, "idle_lost": 0, "loaded_lost": 0}


def test_the_comparison_table_has_the_latency_under_load(window: MainWindow) -> None:
    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    runs = [_run(device.id, 0, "ondemand", None), _run(device.id, 5, "ondemand", None)]
    runs[0].latency = {"groups": {"half/pi_to_pc": _group([1.0] * 20, [120.0] * 50)}}
    runs[1].latency = {"groups": {"half/pi_to_pc": _group([1.0] * 20, [4.0] * 50)}}
    for run in runs:
        window.history.save_run(run)
    page = history_page(window)
    compare_every_run(page)
    table = page.compare_table
    cells = [
        [table.item(r, c).text() for c in range(table.columnCount())]  # type: ignore[union-attr]
        for r in range(table.rowCount())
    ]
    # The throughput rows first, then the latency row with its change in words.
    assert [c[1] for c in cells] == ["One way", "One way", "Latency under load"]
    assert cells[-1] == [
        "Pi → PC", "Latency under load", "+119.0 ms (C)", "+3.0 ms (A+)",
        "less queueing: −116.0\u00a0ms",  # a figure and its unit never wrap apart
    ]  # fmt: skip


def test_the_comparison_uses_this_pis_a_a_calibration(window: MainWindow) -> None:
    """A +12 Mbit/s change that the trials alone call "faster" is inside the run-to-run spread
    an A/A calibration measured on this Pi (20 Mbit/s): the History page says so."""
    from sbctune.compare.calibration import calibrate

    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    runs = [_run(device.id, m, "ondemand", None) for m in (0, 5, 10, 15)]
    trials = ([736.0, 736.5, 737.0], [756.0, 756.5, 757.0], [736.0, 737.0, 736.5],
              [748.0, 748.5, 749.0])  # fmt: skip
    for run, means in zip(runs, trials, strict=True):
        run.tests[0].trial_means = list(means)
        run.tests[0].mean_mbps = means[1]
        window.history.save_run(run)
    page = window.page("history")
    assert isinstance(page, HistoryPage)

    def compare(first: int, second: int) -> str:
        window.go("history")
        page.shown()
        wanted = {runs[first].id, runs[second].id}
        page.set_checked([i for i in wanted if i is not None])
        page.compare_button.click()
        item = page.compare_table.item(0, page.compare_table.columnCount() - 1)
        assert item is not None and page.compare_table.item(0, 0).text() == "Pi → PC"  # type: ignore[union-attr]
        return item.text()

    assert "faster by " in compare(2, 3)  # no calibration yet: +12 with tight trials
    calibrate(window.history, runs[0], runs[1])  # nothing changed between them: 20 apart
    assert "no change detected" in compare(2, 3)


def test_the_list_marks_a_run_stopped_early(window: MainWindow) -> None:
    """s13 walk: Measure again cancelled half-way said "saved as run 2, marked incomplete", and
    History listed it as "quick (tuned)" beside the full runs (the CLI says "incomplete")."""
    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    full = _run(device.id, 0, "ondemand", None)
    stopped = _run(device.id, 5, "performance", ["cpu-governor-performance"])
    stopped.complete = False
    stopped.tests = stopped.tests[:1]
    stopped_untuned = _run(device.id, 10, "ondemand", None)
    stopped_untuned.complete = False
    for run in (full, stopped, stopped_untuned):
        window.history.save_run(run)
    page = history_page(window)
    plans = {}
    for row in range(page.table.rowCount()):
        run_cell, plan_cell = page.table.item(row, 1), page.table.item(row, 4)
        assert run_cell is not None and plan_cell is not None
        plans[run_cell.toolTip()] = plan_cell.toolTip()
    quick = presets()["quick"].title  # the plan as the plan box names it (s17 walk)
    assert plans == {
        f"#{full.id}": quick,
        f"#{stopped.id}": f"{quick} (with tuning in force: CPU frequency governor: performance; "
        "incomplete)",
        f"#{stopped_untuned.id}": f"{quick} (incomplete)",
    }
