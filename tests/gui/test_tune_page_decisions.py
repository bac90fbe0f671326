"""The Tune page shows what was decided elsewhere, at once (issue 21/22 leftovers), offscreen,
without a Pi:

- the answer to the question asked before Tune & Measure ("this change drops the link the SSH
  session runs over"): held rows become planned (agreed) or say why they are held back, in plain
  words, without waiting for the page to plan again;
- a tweak "Find what helps" measured alone as no help is not ticked, and the row says why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.compare.attribution import Contribution
from sbctune.tuning import PlannedTweak, TuningPlan, catalog
from sbctune.tuning.model import Change
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion
from sbctune.ui.widgets.tweak_row import TweakRow
from sbctune.workflow import FlowResult
from sbctune.workflow.flow_types import Attribution
from tests.gui.conftest import until
from tests.plain_words import jargon

RINGS_REASON = (
    "changing rings on macb restarts the interface (macb_set_ringparam), and eth0 carries this "
    "SSH session: held back unless you agree to the link dropping briefly (then applied under "
    "the guard)"
)


def _tune(window: MainWindow) -> TunePage:
    page = window.page("tune")
    assert isinstance(page, TunePage)
    return page


def _row(tune: TunePage, tweak_id: str) -> TweakRow:
    return next(r for r in tune.tweak_rows if r.tweak_id == tweak_id)


def _shown(row: TweakRow) -> str:
    """The words of the row a user sees (hidden labels left out)."""
    return " ".join(w.text() for w in row.findChildren(QLabel) if w.isVisibleTo(row))


def _plan() -> TuningPlan:
    held = PlannedTweak(catalog.tweak("nic-rings"), False, RINGS_REASON, needs_link_consent=True)
    governor = PlannedTweak(catalog.tweak("cpu-governor-performance"), True, "performance")
    return TuningPlan("eth0", [governor, held])


def _answer(
    window: MainWindow,
    drive: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    consent: bool,
) -> list[dict[str, Any]]:
    """Tune & Measure with a plan that holds the rings back; the user answers the question."""
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(window.flow, "start", lambda _plan, **kw: started.append(kw))
    monkeypatch.setattr(window, "go", lambda _key: None)  # no page runs anything on the Pi
    held = [i for i in _plan().items if i.needs_link_consent]

    async def held_before_run(*_args: object) -> list[PlannedTweak]:
        return held

    monkeypatch.setattr("sbctune.workflow.link_consent.held_before_run", held_before_run)
    model = window.state.model
    monkeypatch.setattr(model, "session", object())  # connected, as far as the question goes
    monkeypatch.setattr(model, "inventory", object())

    async def ask() -> None:
        window.tune_and_measure(plan=object())  # type: ignore[arg-type]
        await until(lambda: window.consent_question is not None, 20, "the question")
        asked = window.consent_question
        assert isinstance(asked, LinkConsentQuestion)
        if consent:
            asked.consent_box.click()
        asked.start_button.click()

    drive(ask(), timeout=30)
    window.flow_timer.stop()
    return started


@pytest.mark.parametrize("consent", [True, False])
def test_the_answer_to_the_link_question_shows_on_the_tune_page_at_once(
    window: MainWindow,
    gui_app: QApplication,
    drive: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    consent: bool,
) -> None:
    tune = _tune(window)
    replans: list[object] = []
    monkeypatch.setattr(window.tuning, "load_plan", lambda *a, **k: replans.append((a, k)))
    window.tuning.planned.emit(_plan())
    gui_app.processEvents()
    rings = _row(tune, "nic-rings")
    assert not rings.check.isEnabled() and not rings.check.isChecked()

    started = _answer(window, drive, monkeypatch, consent)
    gui_app.processEvents()
    assert [kw["allow_link_restart"] for kw in started] == [consent]
    assert replans == [], "nothing is planned again on the Pi while the flow starts"
    assert tune.consent_box.isChecked() is consent
    shown = _shown(rings)
    assert not jargon(shown) and "macb_set_ringparam" not in shown, shown
    if consent:  # planned: ticked like the recommended set, and what it does to the link
        assert rings.check.isEnabled() and rings.check.isChecked()
        assert "held back" not in shown.lower(), shown
        assert "drops the link briefly" in shown and "Planned with your consent" in shown
        assert "nic-rings" in tune.selected()
        assert "drop the link briefly when they are applied" in tune.consent_held.text()
    else:  # held back, with the reason in plain words and how to allow it
        assert not rings.check.isEnabled() and not rings.check.isChecked()
        assert "held back" in shown and "Held back: it would briefly drop the network link" in shown
        assert "nic-rings" not in tune.selected()
        assert "Held back" in tune.consent_held.text()
    assert not tune.consent_card.isHidden()


def _no_help() -> Attribution:
    return Attribution(contributions=[Contribution("rps-rfs", 7)])  # no effect beyond noise


def _rps_plan() -> TuningPlan:
    knob = "/sys/class/net/eth1/queues/rx-0/rps_cpus"
    rps = PlannedTweak(catalog.tweak("rps-rfs"), True, "receive work of eth1 on CPUs 0, 1, 2, 3",
                       [Change("file", knob, "0", "f", knob)])  # fmt: skip
    governor = PlannedTweak(catalog.tweak("cpu-governor-performance"), True, "performance",
                            [Change("governor", "cpu0", "ondemand", "performance")])  # fmt: skip
    return TuningPlan("eth1", [rps, governor])


def _says_no_gain(row: TweakRow) -> None:
    shown = _shown(row)
    assert not row.check.isChecked()
    assert "measured: no gain" in shown, shown
    assert "Measured on its own on this Pi: no gain beyond noise" in shown, shown
    assert not jargon(shown), jargon(shown)


def test_a_tweak_measured_as_no_help_is_not_ticked_and_says_why(
    window: MainWindow, gui_app: QApplication
) -> None:
    tune = _tune(window)
    window.tuning.planned.emit(_rps_plan())
    gui_app.processEvents()
    rps = _row(tune, "rps-rfs")
    assert rps.check.isChecked() and "measured" not in _shown(rps)  # recommended, not measured

    # "Find what helps" measured it alone as no help (and reverted it): the shown page follows.
    window.state.model.flow_finished(FlowResult(inventory_id=1, attribution=_no_help()))
    gui_app.processEvents()
    _says_no_gain(rps)
    assert "rps-rfs" not in tune.selected() and "cpu-governor-performance" in tune.selected()

    # Planned again (Reload): still not pre-ticked, still says why; the user may tick it.
    window.tuning.planned.emit(_rps_plan())
    gui_app.processEvents()
    rps = _row(tune, "rps-rfs")
    _says_no_gain(rps)
    assert rps.check.isEnabled()
    rps.check.setChecked(True)
    assert "rps-rfs" in tune.selected()
