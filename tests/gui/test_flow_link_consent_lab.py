"""Issue 21 in the one click, against the Pi 5 lab (macb on RP1: a ring change closes and reopens
the interface, macb_set_ringparam). Before Tune & Measure runs, the app says which tweaks it
would hold back for the link this app talks through, with the Tune page's own consent box.
Without the consent the rings are not touched, the link never drops, and Results names the
tweak as held back; with it the flow applies the rings under the guard (the link bounces for
real in the lab, the flow goes on) and the consent is the Tune page's too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.inspect_page import InspectPage
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.pages.tune_page import TunePage
from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion
from sbctune.workflow import FlowResult
from sbctune.workflow.tuning_words import held_note
from tests.gui.conftest import SCREENSHOTS, until
from tests.gui.test_wizard_lab import ONE_TRIAL, connect_via_dialog
from tests.lab_support import in_lab
from tests.plain_words import jargon

pytestmark = [pytest.mark.lab, pytest.mark.slow]

RINGS = "NIC rings to the hardware maximum"


def _carrier_changes(lab: LabInfo) -> int:
    return int(in_lab(lab, "cat /sys/class/net/eth0/carrier_changes").strip())


def _current_rx(lab: LabInfo) -> str:
    current = in_lab(lab, "ethtool -g eth0").split("Current")[1]
    return next(line.split()[-1] for line in current.splitlines() if line.startswith("RX:"))


def _rings(result: FlowResult) -> str | None:
    found = [o.status for o in result.tuning_outcomes if o.tweak_id == "nic-rings"]
    return found[0] if found else None


def test_one_click_asks_before_dropping_the_link_and_says_what_it_held_back(
    lab_factory: Callable[..., LabInfo],
    window: MainWindow,
    drive: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lab = lab_factory("pi5-macb")
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: ONE_TRIAL)
    inspect, tune = window.page("inspect"), window.page("tune")
    results = window.page("results")
    assert isinstance(inspect, InspectPage) and isinstance(tune, TunePage)
    assert isinstance(results, ResultsPage)
    finished: list[FlowResult] = []
    window.flow.finished.connect(finished.append)

    async def question() -> LinkConsentQuestion:
        inspect.go.click()  # "Tune & Measure"
        await until(lambda: window.consent_question is not None
                    and window.consent_question.isVisible(), 60, "the question")  # fmt: skip
        asked = window.consent_question
        assert isinstance(asked, LinkConsentQuestion)
        assert not window.flow.running, "nothing runs before the user answered"
        return asked

    async def flow(count: int) -> FlowResult:
        await until(lambda: len(finished) == count and not window.flow.running, 400, "the flow")
        await window.flow.wait()
        return finished[-1]

    async def without_consent() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        assert window.state.nic == "eth0"  # the NIC this app reaches the Pi through
        asked = await question()
        words = f"{asked.text()} {asked.informativeText()}"
        assert RINGS in asked.text() and "briefly drop the link" in asked.text()
        assert "held back" in words and not jargon(words), jargon(words)
        # The Tune page's own consent, in the same words.
        assert asked.consent_box.text() == tune.consent_box.text()
        assert asked.consent_box.accessibleName() == tune.consent_box.accessibleName()
        assert not asked.consent_box.isChecked()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert asked.grab().save(str(SCREENSHOTS / "link-consent-one-click.png"))
        asked.start_button.click()  # start without agreeing
        result = await flow(1)
        assert "nic-rings" in result.held_for_link
        assert _rings(result) is None, result.tuning_outcomes

    bounces = _carrier_changes(lab)
    drive(without_consent(), timeout=600)
    assert _carrier_changes(lab) == bounces, "the link never dropped without the consent"
    assert _current_rx(lab) == "512"
    window.go("results")
    shown = results.tuning_text.text()
    line = held_note(window.state.model.held_for_link)
    assert line in shown and RINGS in line and "not possible" not in line, shown
    assert not tune.consent_box.isChecked() and not window.tuning.allow_link_restart

    async def with_consent() -> FlowResult:
        asked = await question()
        asked.consent_box.click()
        asked.start_button.click()
        return await flow(2)

    result = drive(with_consent(), timeout=600)
    assert _rings(result) == "applied", result.tuning_outcomes
    assert result.held_for_link == []
    assert _carrier_changes(lab) >= bounces + 2, "the rings bounced the link, under the guard"
    # The flow measured again on the link it had bounced, then (one trial: no interval) reverted.
    assert result.after is not None and result.after.complete
    assert _current_rx(lab) == "512"
    assert "Held back" not in results.tuning_text.text()
    # The consent is the Tune page's too (for this login).
    assert window.tuning.allow_link_restart and tune.consent_box.isChecked()
