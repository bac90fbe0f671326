"""The Tune page shows what is in force on the Pi, from the state, at every change (walk 14,
problems 1, 9, 9b, 10, 11). No Pi: the app's own state, and the one-click flow's events as the
flow sends them (what its tuning calls read back); against the lab in
test_tune_follows_state_lab.py.

- during Tune & Measure, the old "Tuning left on this Pi — Reverted" box and its focused
  "Continue to Inspect" went on showing while three tweaks were on trial, with no countdown;
- after the guard ran out, every tweak was still listed as "applied", and Measure again offered;
- after Keep, Apply was offered again for the same ticks, no card said "in force", the log did
  not say it was kept; after "Revert it now" the box heading still said "Tuning left on this
  Pi"; the page's countdown and the status bar's were one second apart.
"""

from __future__ import annotations

import re
import time

from PySide6.QtWidgets import QApplication, QLabel

from sbctune.tuning import AppliedSession, PlannedTweak, TuningPlan, catalog
from sbctune.tuning.model import Change, TweakOutcome
from sbctune.ui.controllers.tuning import GUARD_REVERTED
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.tune_page import TunePage
from sbctune.ui.widgets.tweak_row import TweakRow
from sbctune.workflow.flow_types import FlowStep, FlowTuning, GuardHeld
from sbctune.workflow.guard_hold import GuardHold
from sbctune.workflow.leftover import LeftoverNotice

RPS = "/sys/class/net/eth1/queues/rx-0/rps_cpus"


def _shown(row: TweakRow) -> str:
    return " ".join(w.text() for w in row.findChildren(QLabel) if w.isVisibleTo(row))


def _plan() -> TuningPlan:
    rps = PlannedTweak(catalog.tweak("rps-rfs"), True, "receive work of eth1 on CPUs 0, 1, 2, 3",
                       [Change("file", RPS, "0", "f", RPS)])  # fmt: skip
    governor = PlannedTweak(catalog.tweak("cpu-governor-performance"), True, "performance",
                            [Change("governor", "cpu0", "ondemand", "performance")])  # fmt: skip
    return TuningPlan("eth1", [rps, governor])


def _session(guard: int = 90) -> AppliedSession:
    outcomes = [
        TweakOutcome("rps-rfs", "applied", "receive work of eth1 on CPUs 0, 1, 2, 3"),
        TweakOutcome("cpu-governor-performance", "applied", "performance"),
    ]
    return AppliedSession("20261129T122600Z-abcdef", time.time() + guard, outcomes,
                          guard_seconds=guard)  # fmt: skip


def _page(window: MainWindow, gui_app: QApplication) -> TunePage:
    window.go("tune")
    page = window.tune_page
    window.tuning.planned.emit(_plan())
    gui_app.processEvents()
    return page


def _rows(page: TunePage) -> dict[str, TweakRow]:
    return {row.tweak_id: row for row in page.tweak_rows}


def _status_seconds(window: MainWindow) -> int:
    found = re.search(r"reverts in (\d+) s", window.guard_label.text())
    assert found, window.guard_label.text()
    return int(found.group(1))


def test_during_tune_and_measure_the_page_shows_the_flows_trial_not_an_old_box(
    window: MainWindow, gui_app: QApplication
) -> None:
    page = _page(window, gui_app)
    # Walk 14's path: the tuning left on the Pi was reverted ("Revert it now").
    page.leftover.show_notice(LeftoverNotice("A tuning session is on this Pi.", "", False, True))
    window.tuning.leftover_done.emit(
        "Reverted: every value the tuning left on the Pi had changed is back.", False
    )
    gui_app.processEvents()
    card = page.leftover
    assert card.isVisible() and card.next_button.isVisible()
    assert card.title.text() == "Earlier tuning reverted"  # problem 10: not "left on this Pi"

    # Tune & Measure starts, then its tune step puts three tweaks on trial under the guard.
    window.state.model.flow_started()
    gui_app.processEvents()
    assert not card.isVisible() and not card.next_button.isEnabled()
    assert not page.reload_button.isEnabled() and not page.consent_box.isEnabled()
    flow = window.flow
    flow._on_event(FlowStep("tune", "started", "Tuning under the auto-revert guard"))
    flow._on_event(FlowTuning(_session(), "guarded"))
    flow._on_event(FlowStep("keep", "started", "Keeping only what helps"))
    gui_app.processEvents()
    assert not card.isVisible()
    assert page.guard_card.isVisible() and page.countdown.isVisible()
    assert "Tune & Measure" in page.guard_text.text() and "On trial" in page.guard_text.text()
    assert "Receive packet steering" in page.outcomes.text()
    for button in (page.confirm_button, page.revert_button, page.again_button, page.apply_button):
        assert not button.isEnabled(), button.text()
    assert "Tune & Measure is running" in page.confirm_button.toolTip()
    rows = _rows(page)
    for row in rows.values():
        assert "on trial" in _shown(row), _shown(row)
    # The countdown shows in the page and in the status bar, the same seconds (problem 11).
    assert window.guard_label.isVisible()
    assert page.countdown.value() == _status_seconds(window)
    assert 85 <= page.countdown.value() <= 90

    # One of its measurements holds the guard: the Pi's deadline shows, then a fresh countdown.
    flow._on_event(GuardHeld(True))
    flow._on_event(GuardHeld(True, GuardHold("20261129T122600Z-abcdef", 90,
                                             pi_deadline=time.time() + 300)))  # fmt: skip
    gui_app.processEvents()
    assert page.countdown.value() > 200
    assert window.guard_label.text().endswith(f"within {page.countdown.value()} s")
    flow._on_event(GuardHeld(False))
    gui_app.processEvents()
    assert page.countdown.value() == _status_seconds(window) and page.countdown.value() <= 90

    # The flow measured no gain and reverted: the page says so, and what was in force until then.
    flow._on_event(FlowTuning(window.state.tuning or _session(), "reverted"))
    gui_app.processEvents()
    assert "no longer in force" in page.guard_text.text()
    assert page.outcomes.text().startswith("Until then:")
    assert not page.countdown.isVisible() and not window.guard_label.isVisible()
    assert "on trial" not in _shown(rows["rps-rfs"]) and "in force" not in _shown(rows["rps-rfs"])


def test_after_the_guard_ran_out_the_tweaks_were_in_force_until_then(
    window: MainWindow, gui_app: QApplication
) -> None:
    page = _page(window, gui_app)
    applied = _session(30)
    window.state.model.tuning_applied(applied)
    window.tuning.applied.emit(applied)
    gui_app.processEvents()
    assert page.again_button.isEnabled()
    assert "on trial" in _shown(_rows(page)["rps-rfs"])
    # What the controller does when the Pi read back that its guard reverted the session.
    window.state.model.tuning_reverted()
    window.tuning.guard_read.emit(GUARD_REVERTED)
    gui_app.processEvents()
    assert page.guard_text.text() == GUARD_REVERTED
    lines = page.outcomes.text().splitlines()
    assert lines[0] == "Until then:" and lines[1].startswith("Receive packet steering")
    assert not page.again_button.isEnabled()
    assert "reverted" in page.again_button.toolTip()
    assert not page.confirm_button.isEnabled() and not page.revert_button.isEnabled()
    for row in page.tweak_rows:
        assert "on trial" not in _shown(row) and "in force" not in _shown(row)


def test_after_keep_the_cards_say_in_force_and_apply_is_not_offered_again(
    window: MainWindow, gui_app: QApplication
) -> None:
    page = _page(window, gui_app)
    applied = _session()
    window.state.model.tuning_applied(applied)
    window.tuning.applied.emit(applied)
    gui_app.processEvents()
    # What the controller does once the Pi confirmed the session.
    window.state.model.tuning_confirmed()
    window.tuning.confirmed.emit(applied.id)
    gui_app.processEvents()
    rows = _rows(page)
    for row in rows.values():
        assert "in force" in _shown(row), _shown(row)
    assert page.guard_text.text().startswith("Kept. The guard is off")
    assert not page.apply_button.isEnabled()
    assert "in force already" in page.apply_button.toolTip()
    last = page.events.toPlainText().splitlines()[-1]
    assert last.startswith("tuning kept at ") and "guard is off" in last
    rows["rps-rfs"].check.setChecked(False)  # another set: no longer the one in force
    rows["cpu-governor-performance"].check.setChecked(False)
    gui_app.processEvents()
    assert "in force already" not in page.apply_button.toolTip()
    assert page.revert_button.isEnabled() and page.again_button.isEnabled()


def test_a_new_inspection_drops_the_last_plans_rows_and_log(
    window: MainWindow, gui_app: QApplication
) -> None:
    """Walking this fix: reconnected to the Pi, the Tune page still showed the last
    connection's rows (ticked as before the Pi changed) and its log."""
    from sbctune.ui.sample_data import sample_inventory

    page = _page(window, gui_app)
    page.show_event("tuning applied at 13:35: the guard puts it back unless it is kept")
    assert len(page.tweak_rows) == 2 and not page.events.isHidden()
    window.state.model.inspected(sample_inventory(), None, "eth1")
    gui_app.processEvents()
    assert page.tweak_rows == [] and page.events.isHidden()
    assert page.events.toPlainText() == ""


def test_closing_during_the_flows_trial_does_not_offer_keep_or_revert(
    window: MainWindow, gui_app: QApplication
) -> None:
    """The flow's trial now shows as on trial: closing stops the flow (which reverts it) rather
    than asking to keep or revert it beside the running flow."""
    window.state.model.flow_started()
    window.flow._on_event(FlowTuning(_session(), "guarded"))
    gui_app.processEvents()
    assert window.guard_label.isVisible()
    window.close()
    gui_app.processEvents()
    assert window._close_question is None
