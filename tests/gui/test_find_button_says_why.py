"""A greyed-out "Find what helps" says why (walk 18: with tuning on trial, on Results, it was
grey and its tooltip told only what it would do, so a new user could not tell what to change)."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import AppliedSession
from sbctune.ui.controllers.state import AppState
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.results_page import ResultsPage

RUN = RunRecord(
    1, dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc), "quick", nic="eth1", id=1,
    tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=1871.3,
                      intervals=[Interval(float(t), 1871.3) for t in range(1, 6)])],
)  # fmt: skip


def _results(window: MainWindow) -> ResultsPage:
    model = window.state.model
    model.inventory = Inventory(nics=[Nic(name="eth1", driver="r8169", bus="pci")])
    model.nic, model.baseline = "eth1", RUN
    window.go("results")
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    for _ in range(5):
        QApplication.processEvents()
    return page


def test_not_connected_says_to_connect(window: MainWindow) -> None:
    button = _results(window).find_button
    assert not button.isEnabled()
    assert "Not now: Connect to the Pi" in button.toolTip()


def test_tuning_on_trial_says_keep_or_revert_first(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A session object stands for the connection: the button reads only that there is one.
    monkeypatch.setattr(AppState, "session", property(lambda self: object()))
    applied = AppliedSession("20261129T231100Z-abcdef", time.time() + 60, [], guard_seconds=60)
    window.state.model.tuning_applied(applied)
    button = _results(window).find_button
    assert not button.isEnabled()
    assert "Not now: Tuning is on trial" in button.toolTip()
    assert "keep it or revert it first" in button.toolTip()
    window.state.model.tuning_reverted()
    window.go("inspect")
    button = _results(window).find_button
    assert button.isEnabled() and "Not now" not in button.toolTip()
