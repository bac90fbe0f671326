"""A tweak row says which of its parts the Pi's driver refuses (the s12 walk on the pi5-macb
lab: the offloads row read "GRO/GSO/TSO on" and "already set" while the plan, the CLI and the
run's log said TSO was fixed off by the driver)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLabel

from sbctune.tuning import catalog
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.ui.pages.tune_page import TweakRow
from sbctune.ui.theme import LIGHT
from tests.plain_words import jargon


def test_the_row_says_what_the_driver_keeps_off(gui_app: QApplication) -> None:
    tweak = catalog.tweak("offloads-on")
    item = PlannedTweak(
        tweak, True, "GRO/GSO/TSO on",
        changes=[Change("ethtool", "eth0 -K gro", "on", "on"),
                 Change("ethtool", "eth0 -K gso", "on", "on")],
        impossible=[("eth0 -K tso", "fixed off by the driver")],
    )  # fmt: skip
    assert item.already  # what the planner said of the Pi 5 lab
    row = TweakRow(item, False, LIGHT)
    row.show()
    shown = [w.text() for w in row.findChildren(QLabel) if w.isVisibleTo(row)]
    (line,) = [t for t in shown if "Not possible here" in t]
    assert "TCP segmentation offload" in line and "fixed off by the driver" in line
    assert not jargon(line)
    row.close()


def test_a_row_with_nothing_refused_says_nothing_of_it(gui_app: QApplication) -> None:
    tweak = catalog.tweak("offloads-on")
    item = PlannedTweak(tweak, True, "GRO/GSO/TSO on",
                        changes=[Change("ethtool", "eth0 -K tso", "off", "on")])  # fmt: skip
    row = TweakRow(item, True, LIGHT)
    row.show()
    assert not [w for w in row.findChildren(QLabel)
                if w.isVisibleTo(row) and "Not possible" in w.text()]  # fmt: skip
    row.close()
