"""Settings' UDP test, in the real window against the virtual Pi lab: with the test on, a run
started from the Baseline page's Start button adds a UDP test per direction, and its figures
reach the page's results table and the history (the setting itself: test_udp_setting.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.measure.plans import plan_named
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.pages.settings_page import SettingsPage
from tests.gui.conftest import SCREENSHOTS, until
from tests.gui.test_wizard_lab import connect_via_dialog

pytestmark = [pytest.mark.lab, pytest.mark.slow]

# One short trial per direction: this test is about the UDP tests the page adds.
ONE_TRIAL = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)


@pytest.fixture(autouse=True)
def udp_off(window: MainWindow) -> Iterator[None]:
    """The settings file is shared by the session's GUI tests: UDP is off again afterwards."""
    yield
    window.settings.udp_enabled = False


def _type_rate(page: SettingsPage, text: str) -> None:
    page.udp_rate.setText(text)
    page.udp_rate.editingFinished.emit()


def test_a_run_from_the_page_carries_udp_results_to_its_table(
    lab_factory: Any,
    window: MainWindow,
    drive: Callable[..., Any],
    gui_app: QApplication,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lab = lab_factory(profile="pi1b-smsc95xx")  # ~94 Mbit/s: 20 Mbit/s is well below it
    settings = window.page("settings")
    assert isinstance(settings, SettingsPage)
    settings.udp.setChecked(True)
    _type_rate(settings, "20")
    page = window.baseline_page
    assert isinstance(page, MeasurePage)
    monkeypatch.setattr(page, "chosen_plan", lambda: ONE_TRIAL)

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("baseline")
        assert page.udp_note.isVisible()
        assert "UDP test each way at 20 Mbit/s" in page.udp_note.text()
        page.start_button.click()
        await until(lambda: window.baseline.running, 10, "the run to start")
        await until(lambda: not window.baseline.running, 150, "the run")
        await window.baseline.wait()

    drive(scenario(), timeout=240)
    assert page.problem.isHidden(), page.problem.message.text()
    record = window.state.baseline
    assert record is not None and record.complete
    assert {u.direction for u in record.udp} == {"pi_to_pc", "pc_to_pi"}
    assert all(u.target_mbps == 20.0 for u in record.udp)
    assert [u.direction for u in window.history.run(record.id or 0).udp] == [
        u.direction for u in record.udp
    ]
    # What the user sees: the TCP rows, then one "UDP at 20 Mbit/s" row per direction.
    table = page.table
    assert table.rowCount() == len(record.tests) + 2
    udp_rows = [r for r in range(table.rowCount()) if table.item(r, 1).text().startswith("UDP")]
    assert len(udp_rows) == 2
    for row in udp_rows:
        assert table.item(row, 1).text() == "UDP at 20 Mbit/s"
        figures = table.item(row, 6).text()
        assert " ms · " in figures and "% lost" in figures, figures
        received = float(table.item(row, 2).text().split()[0])
        assert 10 < received <= 21, received  # paced at 20, well below the shaped link
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    gui_app.processEvents()
    assert page.results_card.grab().save(str(SCREENSHOTS / "baseline_udp_lab.png"))
