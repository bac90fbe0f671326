"""After "Find what helps" in the app (each recommended tweak measured alone, against the lab),
the Tune page no longer ticks a tweak measured as no help, and says why, both on the rows it
already showed and when it plans again (issue 21/22 leftover: RPS stayed ticked)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from sbctune.ui.widgets.tweak_row import TweakRow
from sbctune.workflow import FlowResult
from sbctune.workflow.rules import no_help_of
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import ONE_TRIAL, connect_via_dialog

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def _shown(row: TweakRow) -> str:
    return " ".join(w.text() for w in row.findChildren(QLabel) if w.isVisibleTo(row))


def _says_no_gain(tune: TunePage, no_help: dict[str, str]) -> None:
    for row in tune.tweak_rows:
        if row.tweak_id in no_help:
            assert not row.check.isChecked(), row.tweak_id
            words = _shown(row)
            assert "measured: no gain" in words and "Measured on its own on this Pi" in words
            assert no_help[row.tweak_id] in words, words


def test_a_tweak_measured_as_no_help_is_not_ticked_on_the_tune_page(
    lab_factory: Callable[..., LabInfo],
    window: MainWindow,
    drive: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lab = lab_factory("pi1b-smsc95xx")  # at its line rate: no tweak alone can help
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: ONE_TRIAL)
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    finished: list[FlowResult] = []
    window.flow.finished.connect(finished.append)

    async def scenario() -> tuple[list[str], FlowResult]:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("tune")
        await until(lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks")
        ticked = tune.selected()
        assert ticked, "the recommended set is ticked before anything was measured"
        window.find_what_helps()
        await until(lambda: finished and not window.flow.running, 500, "Find what helps")
        await window.flow.wait()
        return ticked, finished[-1]

    ticked, result = drive(scenario(), timeout=600)
    no_help = no_help_of(result.attribution)
    measured = [t for t in ticked if t in no_help]
    assert measured, (ticked, result.attribution)
    _says_no_gain(tune, no_help)  # the rows shown before the run follow its result
    assert not set(measured) & set(tune.selected())

    async def replan() -> None:
        window.tuning.load_plan()
        await until(lambda: not window.tuning.running, 60, "the plan")

    drive(replan(), timeout=90)
    _says_no_gain(tune, no_help)  # and a new plan does not tick them again
    assert not set(measured) & set(tune.selected())
