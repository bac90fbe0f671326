"""The question asked before Tune & Measure or "Find what helps" when its plan would hold tweaks
back for the link (issue 21): plain words, the Tune page's consent box in the same words, unique
mnemonics, and Enter starts without the consent (the link is not dropped by a keystroke)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion
from tests.plain_words import jargon


def _mnemonics(question: LinkConsentQuestion) -> list[str]:
    texts = [b.text() for b in question.findChildren(QAbstractButton)]
    return [m.group(1).lower() for t in texts if (m := re.search(r"(?<!&)&([^&])", t))]


def test_the_question_words_the_tune_pages_consent_and_enter_starts_without_it(
    window: MainWindow, gui_app: QApplication
) -> None:
    answers: list[bool] = []
    question = LinkConsentQuestion(
        window, "Tune & Measure", ["NIC rings to the hardware maximum"], answers.append
    )
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    assert question.consent_box.text() == tune.consent_box.text()
    assert question.consent_box.accessibleName() == tune.consent_box.accessibleName()
    words = f"{question.text()} {question.informativeText()}"
    assert "NIC rings to the hardware maximum" in question.text()
    assert question.text() == (
        "Held back: NIC rings to the hardware maximum. It would briefly drop the link this app "
        "reaches the Pi through."
    )  # a sentence with its subject, not "Held back, because they would ... through: NIC ..."
    assert "If you agree, the link drops for about 3 s while it is applied" in (
        question.informativeText()
    )  # one tweak: "it", not "they"
    assert "results say what was held back" in words and not jargon(words), jargon(words)
    assert question.start_button.text() == "&Start Tune && Measure"  # a literal "&"
    marks = _mnemonics(question)
    assert len(marks) == len(set(marks)) == 3, marks  # start, cancel, the consent box
    question.open()
    question.activateWindow()
    gui_app.processEvents()
    QTest.keyClick(question, Qt.Key.Key_Return)
    gui_app.processEvents()
    assert answers == [False]  # started, without the consent

    question = LinkConsentQuestion(window, "Find what helps", ["Flow control"], answers.append)
    question.open()
    question.consent_box.click()
    question.cancel_button.click()
    gui_app.processEvents()
    assert answers == [False], "Cancel starts nothing"
    question = LinkConsentQuestion(window, "Find what helps", ["Flow control"], answers.append)
    question.open()
    question.consent_box.click()
    question.start_button.click()
    gui_app.processEvents()
    assert answers == [False, True]


def test_a_consent_given_on_the_tune_page_goes_with_both_flows(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing to ask (not connected): the flows start at once; the Tune page's consent, once
    given, is the flows' too (no second question)."""
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(window.flow, "start", lambda _plan, **kw: started.append(kw))
    window.tune_and_measure()
    window.find_what_helps()
    assert [(kw.get("find", False), kw["allow_link_restart"]) for kw in started] == [
        (False, False), (True, False),
    ]  # fmt: skip
    window.tuning.allow_link_restart = True  # what the Tune page's box records
    window.tune_and_measure()
    window.find_what_helps()
    assert [kw["allow_link_restart"] for kw in started[2:]] == [True, True]
    assert window.consent_question is None
