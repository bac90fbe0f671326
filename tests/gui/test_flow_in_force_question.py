"""Tune & Measure with tuning kept on the Pi: the window asks first, in the Baseline page's
words, "Revert it first, then Tune & Measure" or "Cancel"; Cancel starts nothing, the revert
starts the flow told to put the tuning back and read the Pi back before its baseline."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication

from sbctune.tuning import AppliedSession
from sbctune.tuning.model import TweakOutcome
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.flow_in_force_question import FlowInForceQuestion
from sbctune.workflow.baseline_check import tuning_in_force
from sbctune.workflow.state import ConnectedInfo
from tests.plain_words import jargon


def _keep_tuning(window: MainWindow) -> None:
    model = window.state.model
    info = ConnectedInfo("pi@lab", "lab", "6.1", "pi", "passwordless", True)
    model.connected(cast(Any, object()), info, 1)  # no inventory: no link question follows
    outcomes = [TweakOutcome("cpu-governor-performance", "applied")]
    model.tuning_applied(AppliedSession("20261129T121500Z-abcd", 0.0, outcomes))
    model.tuning_confirmed()


def test_tune_and_measure_with_tuning_kept_asks_and_both_answers_do_what_they_say(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    _keep_tuning(window)
    try:
        _asks(window, gui_app, monkeypatch)
    finally:
        window.state.model.disconnected()  # the stand-in session has nothing to close


def _asks(window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(window.flow, "start", lambda _plan, **kw: started.append(kw))
    found = tuning_in_force(window.state.model)
    assert found is not None

    window.tune_and_measure()
    gui_app.processEvents()
    question = window.in_force_question
    assert isinstance(question, FlowInForceQuestion) and question.isVisible()
    assert started == [], "the flow started with its baseline tuned"
    assert found.notice() in question.text()  # the Baseline page's words
    words = f"{question.text()} {question.informativeText()}"
    assert not jargon(words), jargon(words)
    assert question.revert_button.text() == "&Revert it first, then Tune && Measure"
    texts = [b.text() for b in question.findChildren(QAbstractButton)]
    marks = [m.group(1).lower() for t in texts if (m := re.search(r"(?<!&)&([^&])", t))]
    assert len(marks) == len(set(marks)) == 2, marks
    question.cancel_button.click()
    gui_app.processEvents()
    assert started == [], "Cancel starts nothing"

    window.tune_and_measure()
    gui_app.processEvents()
    question = window.in_force_question
    assert isinstance(question, FlowInForceQuestion)
    question.revert_button.click()
    gui_app.processEvents()
    assert [kw["revert_first"] for kw in started] == [True]
    assert window.current_key() == "baseline"

    window.find_what_helps()  # the other flow that measures a "before" asks too
    gui_app.processEvents()
    question = window.in_force_question
    assert isinstance(question, FlowInForceQuestion) and question.windowTitle() == "Find what helps"
    question.cancel_button.click()
    assert len(started) == 1
