"""The Tune page, offscreen (the app's own state, no Pi): Keep and Revert wait while a
measurement holds the guard, with the reason (issue 25); tweaks held back because they drop the
SSH NIC's link are offered behind a consent box that plans them again (issue 21; against the lab
in test_link_consent_gui_lab.py)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.tuning import AppliedSession, PlannedTweak, TuningPlan, catalog
from sbctune.tuning.model import Change
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from sbctune.workflow.state import ConnectedInfo


def _tune(window: MainWindow) -> TunePage:
    page = window.page("tune")
    assert isinstance(page, TunePage)
    return page


def test_keep_and_revert_wait_while_a_measurement_holds_the_guard(
    window: MainWindow, gui_app: QApplication
) -> None:
    tune = _tune(window)
    applied = AppliedSession("20261128T150000Z-abcdef", time.time() + 60, [], guard_seconds=60)
    window.state.model.tuning_applied(applied)
    window.tuning.applied.emit(applied)
    gui_app.processEvents()
    keep, revert = tune.confirm_button, tune.revert_button
    assert keep.isEnabled() and revert.isEnabled() and keep.toolTip() == ""
    assert tune.guard_text.text().startswith("Applied. Check that the Pi still answers")

    window.state.model.hold_guard(True)  # Measure again while armed
    gui_app.processEvents()
    for button in (keep, revert):
        assert not button.isEnabled()
        assert button.toolTip() == "A measurement is running; it holds the guard until it ends."
    assert "a measurement is running" in tune.guard_text.text()
    assert "holds the guard until it ends" in tune.guard_text.text()

    window.state.model.hold_guard(False)  # the run ended: the guard counts down again
    gui_app.processEvents()
    assert keep.isEnabled() and revert.isEnabled() and keep.toolTip() == revert.toolTip() == ""
    assert tune.guard_text.text().startswith("Applied. Check that the Pi still answers")

    window.state.model.hold_guard(True)
    window.state.model.tuning_reverted()  # read back at the run's end: the Pi reverted it
    gui_app.processEvents()
    assert not keep.isEnabled() and keep.toolTip() == ""
    assert "no longer in force" in tune.guard_text.text()


def _held_rings() -> PlannedTweak:
    reason = ("changing rings on macb restarts the interface (macb_set_ringparam), and eth0 "
              "carries this SSH session: held back unless you agree to the link dropping "
              "briefly (then applied under the guard)")  # fmt: skip
    return PlannedTweak(catalog.tweak("nic-rings"), False, reason, needs_link_consent=True)


def test_held_tweaks_are_offered_behind_a_consent_box_that_plans_again(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    tune = _tune(window)
    asked: list[bool | None] = []
    monkeypatch.setattr(
        window.tuning, "load_plan", lambda allow_link_restart=None: asked.append(allow_link_restart)
    )
    governor = catalog.tweak("cpu-governor-performance")
    plan = TuningPlan("eth0", [PlannedTweak(governor, True, "performance"), _held_rings()])
    window.tuning.planned.emit(plan)
    gui_app.processEvents()
    assert not tune.consent_card.isHidden()
    box = tune.consent_box
    assert not box.isChecked() and box.isEnabled()
    assert box.accessibleName() == (
        "Also apply changes that briefly drop the network link (about 3 s; applied under the "
        "guard, which puts everything back if the Pi stops answering)"
    )
    assert tune.consent_held.text() == (
        "Held back: NIC rings to the hardware maximum. It would briefly drop the link this app "
        "reaches the Pi through."
    )
    # Read top to bottom: what is held back, the box, what ticking it does (a sentence).
    body = tune.consent_card.body
    order = [body.indexOf(w) for w in (tune.consent_held, tune.consent_box, tune.consent_words)]
    assert order == sorted(order), order
    assert tune.consent_words.text().startswith(
        "If you agree, the link drops for about 3 s while it is applied,"
    )
    row = next(r for r in tune.tweak_rows if r.tweak_id == "nic-rings")
    assert not row.check.isEnabled()
    shown = " ".join(w.text() for w in row.findChildren(type(tune.status)))
    # The reason in plain words: not the planner's (it names the driver's function).
    assert "Held back: it would briefly drop the network link" in shown, shown
    assert "macb_set_ringparam" not in shown and "--allow-link-restart" not in shown
    gov = next(r for r in tune.tweak_rows if r.tweak_id == "cpu-governor-performance")
    gov.check.setChecked(False)  # the user's own choice survives the new plan

    box.click()
    assert asked == [True] and not box.isEnabled()
    window.tuning.allow_link_restart = True  # what load_plan records before it plans
    agreed = PlannedTweak(catalog.tweak("nic-rings"), True, "rings at the driver's maximum",
                          [Change("ethtool", "eth0 -G rx", "512", "8192")],
                          restarts_link=True)  # fmt: skip
    window.tuning.planned.emit(TuningPlan("eth0", [PlannedTweak(governor, True, "x"), agreed]))
    gui_app.processEvents()
    assert box.isChecked() and box.isEnabled() and not tune.consent_card.isHidden()
    assert "drop the link briefly" in tune.consent_held.text()
    assert "nic-rings" in tune.selected() and "cpu-governor-performance" not in tune.selected()

    window.state.connection_changed.emit()  # the same login (a wrapped session): kept
    assert box.isChecked() and window.tuning.allow_link_restart
    # Another login: the consent was for the last one.
    window.state.model.info = ConnectedInfo("pi@198.18.0.2", "otherpi", "6.12", "pi", "root", True)
    window.state.connection_changed.emit()
    assert not box.isChecked() and tune.consent_card.isHidden()
    assert not window.tuning.allow_link_restart


def test_no_consent_card_when_nothing_is_held(window: MainWindow, gui_app: QApplication) -> None:
    tune = _tune(window)
    governor = catalog.tweak("cpu-governor-performance")
    window.tuning.planned.emit(TuningPlan("eth0", [PlannedTweak(governor, True, "performance")]))
    gui_app.processEvents()
    assert tune.consent_card.isHidden()
