"""Results recommends only tweaks the NIC's driver can do, with sources that fit its board
(walk 17, a Pi 3 B+ lan78xx losing segments: Results said "Tune the Pi for this bottleneck:
… NIC rings to the hardware maximum", citing a Pi 5 RP1 issue, while the Tune page showed the
rings "not possible here": lan78xx has no set_ringparam in its ethtool_ops)."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QApplication, QLabel

from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.widgets.advice_cards import RecommendationCard

LOSSY = RunRecord(
    1, dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc), "quick", nic="eth0", id=1,
    tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=300.0, retransmits=3600,
                      intervals=[Interval(float(t), 300.0) for t in range(1, 16)])],
)  # fmt: skip


def _tweak_card(window: MainWindow, driver: str) -> str:
    model = window.state.model
    model.inventory = Inventory(
        nics=[Nic(name="eth0", driver=driver, bus="usb", link_speed_mbps=1000)]
    )
    model.nic, model.baseline, model.advice = "eth0", LOSSY, None
    window.go("results")
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    for _ in range(5):  # the advice cards are made on the next turn of the loop
        QApplication.processEvents()
    cards = page.findChildren(RecommendationCard)
    texts = [" ".join(w.text() for w in c.findChildren(QLabel)) for c in cards]
    return next(t for t in texts if "for this bottleneck" in t)


def test_lan78xx_losing_segments_is_not_told_to_raise_rings_nor_cited_a_pi5_issue(
    window: MainWindow,
) -> None:
    card = _tweak_card(window, "lan78xx")
    assert "Energy-Efficient Ethernet off" in card and "Larger socket buffers" in card
    assert "NIC rings" not in card  # lan78xx: no set_ringparam (Tune: "not possible here")
    assert "Pi 5" not in card and "RP1" not in card


def test_a_pi5_macb_keeps_its_own_source(window: MainWindow) -> None:
    card = _tweak_card(window, "macb")
    assert "NIC rings" in card  # macb has set_ringparam
    assert "RP1" in card  # the issue is about this MAC


def test_the_badge_names_each_kind_of_recommendation_by_its_own_word(window: MainWindow) -> None:
    """The s17 walk: a tweak's card wore the badge "Setting", the word of a board or OS
    setting (config.txt, a BIOS-like switch); every kind of contract 2 has its own word."""
    from sbctune.inventory.model import Recommendation

    kinds = ("tweak", "driver", "adapter", "setting", "cable", "power", "board")
    colors = window.theme.colors
    cards = [RecommendationCard(Recommendation(k, "eth0", "t", "d", ""), colors) for k in kinds]
    words = [card.badge.text() for card in cards]
    assert words[0] == "Tweak" and words[3] == "Setting"
    assert len(set(words)) == len(kinds), words
