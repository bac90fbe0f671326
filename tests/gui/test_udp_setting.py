"""Settings' UDP test: off by default, a rate out of range refused with a message (the last
good rate kept), applied to what Tune & Measure runs; and UDP rows in the before/after table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.history.records import RunRecord, TestRecord, UdpRecord
from sbctune.measure.plans import Plan, plan_named
from sbctune.ui.controllers.results import result_rows, udp_rows
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.settings_page import SettingsPage
from sbctune.ui.settings import AppSettings
from sbctune.ui.widgets.run_table import CompareTable


@pytest.fixture(autouse=True)
def udp_off(window: MainWindow) -> Iterator[None]:
    """The settings file is shared by the session's GUI tests: each starts and ends with UDP off."""
    window.settings.udp_enabled = False
    yield
    window.settings.udp_enabled = False


def test_udp_is_off_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))  # a fresh settings file
    settings = AppSettings()
    assert settings.udp_rate() is None and settings.udp_mbps == 50.0


def _type_rate(page: SettingsPage, text: str) -> None:
    page.udp_rate.setText(text)
    page.udp_rate.editingFinished.emit()


def _settings_page(window: MainWindow) -> SettingsPage:
    window.go("settings")
    page = window.page("settings")
    assert isinstance(page, SettingsPage)
    return page


def test_rate_out_of_range_is_refused_with_a_message(window: MainWindow) -> None:
    page = _settings_page(window)
    assert not page.udp.isChecked() and window.settings.udp_rate() is None
    page.udp.setChecked(True)
    _type_rate(page, "30")
    assert window.settings.udp_rate() == 30.0
    for bad in ("0", "-5", "100001", "fast", "nan"):
        _type_rate(page, bad)
        assert not page.udp_problem.isHidden(), bad
        assert "is not a UDP rate" in page.udp_problem.message.text()
        assert "at most 100000" in page.udp_problem.hint.text()
        assert "runs at 30 Mbit/s" in page.udp_problem.hint.text()
        assert window.settings.udp_rate() == 30.0, "the last good rate is kept"
        assert page.udp_rate.text() == bad, "what the user typed stays to be corrected"
    _type_rate(page, "12,5")  # a decimal comma, as many locales write it
    assert page.udp_problem.isHidden()
    assert window.settings.udp_rate() == 12.5
    page.udp.setChecked(False)
    assert window.settings.udp_rate() is None
    assert window.settings.udp_mbps == 12.5, "the rate is kept for next time"


def test_tune_and_measure_runs_the_udp_tests_too(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Plan] = []
    monkeypatch.setattr(window.flow, "start", lambda plan, **_kw: started.append(plan))
    quick = plan_named("quick")
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: quick)
    window.tune_and_measure()
    assert started[-1] is quick  # off: the plan as chosen
    page = _settings_page(window)
    page.udp.setChecked(True)
    _type_rate(page, "40")
    window.tune_and_measure()
    plan = started[-1]
    assert plan.tests[: len(quick.tests)] == quick.tests
    udp = plan.tests[len(quick.tests) :]
    assert [(t.directions, t.udp_mbps) for t in udp] == [
        (("pi_to_pc",), 40.0),
        (("pc_to_pi",), 40.0),
    ]


def _run(run_id: int, udp: list[UdpRecord]) -> RunRecord:
    return RunRecord(
        device_id=1,
        started_at=dt.datetime(2026, 11, 23, 22, run_id, tzinfo=dt.timezone.utc),
        plan_name="quick",
        id=run_id,
        tests=[TestRecord("pi_to_pc", "half", mean_mbps=93.0, complete=True)],
        udp=udp,
    )


def test_the_before_after_table_has_the_udp_rows() -> None:
    runs = [
        _run(1, [UdpRecord("pi_to_pc", 50.0, 48.0, 0.012, 523, 13389, 3.9, None, True)]),
        _run(2, [UdpRecord("pi_to_pc", 50.0, 49.8, 0.010, 5, 13390, 0.04, None, True)]),
    ]
    table = CompareTable()
    table.show_rows(["Before", "After"], result_rows(runs), "Mbit/s", [], udp_rows(runs))
    assert table.rowCount() == 2
    cells = [table.item(1, c).text() for c in range(table.columnCount())]
    assert cells == [
        "Pi → PC",
        "UDP at 50 Mbit/s",
        "48.0 Mbit/s, jitter 0.012 ms, loss 3.90 %",
        "49.8 Mbit/s, jitter 0.010 ms, loss 0.04 %",
        "received +1.8 Mbit/s, jitter −0.002 ms, loss −3.86 points",
    ]
