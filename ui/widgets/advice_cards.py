"""Findings and recommendation cards (drivers, adapters, settings, cables, power)."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from sbctune.inventory.model import Finding, Recommendation
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import Badge, Card, clear_layout, label
from sbctune.ui.widgets.inventory_cards import FindingRow

KIND_TITLE = {
    "tweak": "Tweak",  # what the Tune page applies; "Setting" is a board or OS setting
    "driver": "Driver",
    "adapter": "Adapter",
    "setting": "Setting",
    "cable": "Cable",
    "power": "Power",
    "board": "Board",
}


class RecommendationCard(Card):
    def __init__(self, rec: Recommendation, colors: Colors) -> None:
        super().__init__(rec.title)
        self.badge = Badge(KIND_TITLE.get(rec.kind, rec.kind), "accent", colors)
        self.header.insertWidget(0, self.badge)
        self.body.addWidget(label(rec.detail, selectable=True))
        if rec.expected_gain:
            self.body.addWidget(label(f"Expected: {rec.expected_gain}", name="cardTitle"))
        for source in rec.sources[:3]:
            self.body.addWidget(label(f"Source: {source}", name="muted", selectable=True))


class AdviceView(QWidget):
    """Findings first (what limits the Pi), then what to do, best expected gain first."""

    def __init__(self, colors: Colors) -> None:
        super().__init__()
        self._colors = colors
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.badges: list[Badge] = []
        self.recommendation_cards: list[RecommendationCard] = []

    def show_advice(self, findings: list[Finding], recommendations: list[Recommendation]) -> None:
        clear_layout(self.layout_)
        self.badges = []
        self.recommendation_cards = []
        card = Card("Findings")
        for finding in findings:
            row = FindingRow(finding, self._colors)
            self.badges.append(row.badge)
            card.body.addWidget(row)
        if not findings:
            card.body.addWidget(label("Nothing limits this Pi that sbctune can see.", name="muted"))
        self.layout_.addWidget(card)
        if recommendations:
            self.layout_.addWidget(label("Recommendations", name="cardTitle"))
        for rec in recommendations:
            rec_card = RecommendationCard(rec, self._colors)
            self.recommendation_cards.append(rec_card)
            self.badges.append(rec_card.badge)
            self.layout_.addWidget(rec_card)

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors
        for badge in self.badges:
            badge.restyle(colors)
