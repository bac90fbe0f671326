"""A second measurement asked for while one runs is not started; the window shows the running
one, whose view (its plot, its Cancel) stays as it was, and says why (s13 walk: Tune & Measure
pressed on Inspect while a baseline ran replaced the baseline's view with "already running",
its Cancel greyed out, while the first run went on out of sight)."""

from __future__ import annotations

from typing import Any

import pytest

from sbctune.ui.controllers.measurement import MeasureController
from sbctune.ui.main_window import MainWindow


@pytest.mark.parametrize("running", ["baseline", "again"])
def test_no_second_measurement_while_one_runs(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, running: str
) -> None:
    busy = window.baseline if running == "baseline" else window.again
    monkeypatch.setattr(MeasureController, "running", property(lambda self: self is busy))
    flows: list[dict[str, Any]] = []
    monkeypatch.setattr(window.flow, "start", lambda _plan, **kw: flows.append(kw))
    starts: list[str] = []
    for page in (window.baseline_page, window.again_page):
        monkeypatch.setattr(page, "start", lambda p=page: starts.append(p.role))
    window.go("inspect")
    for ask in (window.tune_and_measure, window.find_what_helps, window._measure_only,
                window._measure_again):  # fmt: skip
        ask()
        assert window.current_key() == running, ask
        message = window.statusBar().currentMessage()
        assert message == (
            "A measurement is running: wait for it to end, or cancel it, before starting another."
        ), ask
        window.go("inspect")
    assert flows == [] and starts == []
    assert window.consent_question is None
