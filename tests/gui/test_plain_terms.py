"""Technical words a first-time user met on the walk (issue 22): the CPU plot's legend said
user/system/irq/softirq, the tables "Half-duplex", Settings "endpoint", the board "(no
vcgencmd)". Plain words on screen; the precise term in a tooltip."""

from __future__ import annotations

import datetime as dt
import re

from PySide6.QtWidgets import QApplication, QFormLayout, QLabel

from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Board
from sbctune.inventory.parsers.common import ParseWarning
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage
from sbctune.ui.pages.inspect_page import InspectPage
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.pages.settings_page import SettingsPage
from sbctune.ui.sample_data import sample_inventory
from sbctune.ui.theme import LIGHT
from sbctune.ui.widgets.inventory_cards import throttling_text
from sbctune.ui.widgets.live_plots import CpuLoadPlot
from sbctune.ui.widgets.run_table import RunTable


def test_the_cpu_legend_uses_plain_names_and_the_tooltip_the_kernel_terms(
    gui_app: QApplication,
) -> None:
    plot = CpuLoadPlot(LIGHT)
    names = [text.text for _sample, text in plot.legend.items]
    assert names == ["programs", "kernel", "interrupts", "packet work"]
    for term in ("user", "system", "irq", "softirq"):
        assert f"\u201c{term}\u201d" in plot.toolTip()


def test_the_run_table_says_one_way_with_half_duplex_in_the_tooltip(gui_app: QApplication) -> None:
    run = RunRecord(
        device_id=1, started_at=dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.timezone.utc),
        plan_name="quick", nic="eth1", complete=True, id=1,
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=736.0),
               TestRecord(direction="pi_to_pc", mode="full", mean_mbps=163.0)],
    )  # fmt: skip
    table = RunTable()
    table.show_run(run, "Mbit/s")
    cells = [table.item(r, 1) for r in range(2)]
    assert [c.text() for c in cells if c] == ["One way", "Both ways"]
    assert [c.toolTip().split(" (")[1].split(":")[0] for c in cells if c] == [
        "Half duplex", "Full duplex"
    ]  # fmt: skip


def test_settings_and_the_board_speak_plainly(window: MainWindow) -> None:
    page = window.page("settings")
    assert isinstance(page, SettingsPage)
    labels = [w.text() for w in page.findChildren(QLabel)]
    assert not [t for t in labels if "endpoint" in t.lower()], labels
    assert not [t for t in labels if "A/A" in t], labels  # s10 walk: "A/A calibration: ..."
    form = page.endpoint.parentWidget().findChild(QFormLayout)
    assert form is None or form.labelForField(page.endpoint) is not None
    assert "endpoint" in page.endpoint.toolTip()  # the precise word where one hovers
    assert throttling_text(Board(throttled=None)) == "unknown (needs the Pi's vcgencmd tool)"


def test_the_cpu_note_and_the_history_list_use_the_words_on_screen(window: MainWindow) -> None:
    """Seen on the walk of session 10: under a legend of "interrupts" and "packet work" the note
    said "irq and softirq"; History's figures said "Pi → PC half 833.5 Mbit/s"."""
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    note = page.cpu_note.text()
    assert note.startswith("Interrupts and packet work are the network's work.")
    assert not re.search(r"\b(irq|softirq)\b", note, re.IGNORECASE), note

    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    start = dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.timezone.utc)
    window.history.save_run(
        RunRecord(
            device_id=device.id, started_at=start, plan_name="quick", nic="eth1", complete=True,
            tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=833.5),
                   TestRecord(direction="pc_to_pi", mode="full", mean_mbps=410.0)],
        )
    )  # fmt: skip
    window.go("history")
    history = window.page("history")
    assert isinstance(history, HistoryPage)
    item = history.table.item(0, 5)
    assert item is not None
    # what the eye reads: the no-break space and word joiner only keep "Mbit/s" on one line
    seen = item.text().replace("\u00a0", " ").replace("\u2060", "")
    assert seen == "Pi → PC one way 833.5 Mbit/s, PC → Pi both ways 410.0 Mbit/s"
    assert item.toolTip() == seen


def test_inspect_says_once_what_the_driver_does_not_offer(window: MainWindow) -> None:
    """s10 walk: five "Could not read eth0's ring buffer sizes (ethtool -g eth0): the driver
    does not offer this (netlink error: Operation not supported)" lines under Other findings."""
    inventory = sample_inventory()
    why = "the driver does not offer this (netlink error: Operation not supported)"
    inventory.warnings = [
        str(ParseWarning("ethtool -g eth0", why)),
        str(ParseWarning("ethtool -l eth0", why)),
        str(ParseWarning("lsusb -v", "a line could not be read <b>")),
    ]
    # eth0's card shows its queues (from sysfs) while ethtool -l is not offered: the s11 walk
    # read "Queues 1 rx / 1 tx" above "not shown: eth0's queue counts" on the Pi 5.
    inventory.nics[0].rx_queues, inventory.nics[0].tx_queues = 1, 1
    page = window.page("inspect")
    assert isinstance(page, InspectPage)
    page.show_inventory(inventory)
    texts = [w.text() for w in page.findChildren(QLabel)]
    assert "1 rx / 1 tx" in texts
    line = (
        "Not offered by the driver, so not shown: eth0's ring buffer sizes and queue count limits."
    )
    assert line in texts
    assert not [t for t in texts if "queue counts" in t], texts
    assert not [t for t in texts if "netlink" in t or "ethtool -g" in t], texts
    (shown,) = [w for w in page.findChildren(QLabel) if w.text() == line]
    assert "ethtool -g eth0" in shown.toolTip() and "netlink error" in shown.toolTip()
    assert [t for t in texts if t.startswith("Could not read")] == [
        "Could not read “lsusb -v”: a line could not be read <b>"
    ]
