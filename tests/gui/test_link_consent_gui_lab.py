"""Issue 21 in the desktop app, against the Pi 5 lab (macb on RP1, whose ring change closes and
reopens the interface, macb_set_ringparam): the ring tweak is held back on the NIC that carries
the SSH session, with the reason in plain words; after the user ticks the consent box the page
plans again and the tweak is applied under the guard; the link really bounces in the lab, the
app's new connection comes through (reachable), and Revert over the same session puts the rings
back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from tests.gui.conftest import SCREENSHOTS, until
from tests.gui.test_wizard_lab import connect_via_dialog
from tests.lab_support import forget_session, in_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def _carrier_changes(lab: LabInfo) -> int:
    return int(in_lab(lab, "cat /sys/class/net/eth0/carrier_changes").strip())


def _current_rx(lab: LabInfo) -> str:
    current = in_lab(lab, "ethtool -g eth0").split("Current")[1]
    return next(line.split()[-1] for line in current.splitlines() if line.startswith("RX:"))


def test_rings_that_drop_the_ssh_link_need_the_users_consent_in_the_app(
    lab_factory: Callable[..., LabInfo], window: MainWindow, drive: Callable[..., Any]
) -> None:
    lab = lab_factory("pi5-macb")
    tune = window.page("tune")
    assert isinstance(tune, TunePage)
    assert _current_rx(lab) == "512"

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        assert window.state.nic == "eth0"  # the NIC this app reaches the Pi through
        window.go("tune")
        await until(lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks")
        rings = next(r for r in tune.tweak_rows if r.tweak_id == "nic-rings")
        assert not rings.check.isEnabled() and "nic-rings" not in tune.selected()
        assert tune.consent_card.isVisible() and not tune.consent_box.isChecked()
        words = " ".join(w.text() for w in rings.findChildren(type(tune.status)))
        # The reason in plain words (the planner's names macb_set_ringparam), and how to agree.
        assert "Held back: it would briefly drop the network link" in words, words
        assert "macb_set_ringparam" not in words and "Also apply changes" in words
        assert "--allow-link-restart" not in words
        assert "NIC rings to the hardware maximum" in tune.consent_held.text()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(SCREENSHOTS / "link-consent-tune.png"))

        tune.consent_box.click()  # the user agrees: planned again with the consent
        await until(lambda: not window.tuning.running and tune.consent_box.isEnabled(), 60,
                    "the plan with the consent")  # fmt: skip
        rings = next(r for r in tune.tweak_rows if r.tweak_id == "nic-rings")
        assert rings.check.isEnabled() and rings.check.isChecked()
        assert tune.consent_box.isChecked() and tune.consent_card.isVisible()
        for row in tune.tweak_rows:  # only the rings, to keep the test short
            row.check.setChecked(row.tweak_id == "nic-rings")
        assert tune.selected() == ["nic-rings"]

        bounces = _carrier_changes(lab)
        tune.apply_button.click()
        await until(lambda: window.state.tuning_state == "guarded", 120, "the rings applied")
        applied = window.state.tuning
        assert applied is not None
        try:
            outcome = applied.outcome("nic-rings")
            assert outcome is not None and outcome.status == "applied", outcome
            assert applied.reachable, "the app's new connection came through the link bounce"
            assert _carrier_changes(lab) >= bounces + 2  # the link went down and up again
            assert _current_rx(lab) == "8192"
            assert tune.guard_card.isVisible() and tune.revert_button.isEnabled()
            tune.revert_button.click()  # over the session that lived through the bounce
            await until(lambda: window.state.tuning_state == "reverted", 60, "the revert")
            assert not tune.problem.isVisible(), tune.problem.message.text()
            assert _current_rx(lab) == "512"
        finally:
            forget_session(applied.id)

    drive(scenario(), timeout=300)
