"""Step 2, Inspect: the board, one card per NIC with its findings; pick the NIC; Tune & Measure."""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sbctune.ui.controllers.inspection import (
    InspectController,
    Inventory,
    not_offered_line,
    warning_words,
)
from sbctune.ui.controllers.state import AppState
from sbctune.ui.pages.base import Page
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import Card, ProblemPanel, clear_layout, label
from sbctune.ui.widgets.inventory_cards import BoardCard, FindingRow, NicCard
from sbctune.workflow import Problem


class InspectPage(Page):
    title = "2 · Inspect"
    intro = (
        "What the Pi has: its board and every network interface, with the chip, the driver, how "
        "it is attached and what limits it. Pick the one to test."
    )
    tune_and_measure = Signal()
    measure_only = Signal()

    def __init__(self, state: AppState, controller: InspectController, colors: Colors) -> None:
        super().__init__()
        self._state = state
        self.controller = controller
        self._colors = colors
        bar = QHBoxLayout()
        self.refresh_button = QPushButton("Inspect &again")
        self.refresh_button.clicked.connect(controller.inspect)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.status = label(name="muted")
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.progress)
        bar.addWidget(self.status, 1)
        self.content.addLayout(bar)
        # The one click, above the cards (which can be long): the first thing to see.
        self.action_card = Card("")
        self.action_card.setObjectName("actionCard")
        self.action_card.title.hide()
        actions = QHBoxLayout()
        self.ready = label("", name="readyText")
        self.go = QPushButton("Tune && Measure")
        self.go.setObjectName("primary")
        self.go.setToolTip(
            "Measure now, apply the safe recommended tweaks under an auto-revert guard, "
            "measure again and show the difference."
        )
        self.go.setAccessibleName("Tune and Measure")
        self.go.clicked.connect(self.tune_and_measure)
        self.measure_button = QPushButton("&Measure only")
        self.measure_button.clicked.connect(self.measure_only)
        actions.addWidget(self.ready, 1)
        actions.addWidget(self.measure_button)
        actions.addWidget(self.go)
        self.action_card.body.addLayout(actions)
        self.content.addWidget(self.action_card)
        self.problem = ProblemPanel()
        self.content.addWidget(self.problem)
        self.cards_box = QWidget()
        self.cards = QVBoxLayout(self.cards_box)
        self.cards.setContentsMargins(0, 0, 0, 0)
        self.cards.setSpacing(10)
        self.content.addWidget(self.cards_box)
        self.content.addStretch(1)
        self.nic_cards: list[NicCard] = []
        self._working = False
        self._group = QButtonGroup(self)
        controller.busy.connect(self._busy)
        controller.failed.connect(lambda p: self._failed(p))
        controller.inspected.connect(self.show_inventory)
        state.nic_changed.connect(self._update_buttons)
        self._update_buttons()

    def shown(self) -> None:
        state = self._state
        if state.inventory is None and state.session is not None and not self.controller.running:
            self.controller.inspect()
        self._update_buttons()

    def _busy(self, busy: bool) -> None:
        self._working = busy
        self.progress.setVisible(busy)
        self.refresh_button.setEnabled(not busy)
        self.status.setText("Reading the Pi's hardware (two SSH round trips)…" if busy else "")
        if busy:
            self.problem.clear()
        self._update_buttons()

    def _failed(self, problem: Problem) -> None:
        self.problem.show_problem(problem.message, problem.hint)

    def _update_buttons(self) -> None:
        ready = self._state.inventory is not None and self._state.nic is not None
        live = self._state.session is not None and not self._working
        self.go.setEnabled(ready and live)
        self.measure_button.setEnabled(ready and live)
        self.refresh_button.setEnabled(live)
        nic = self._state.nic
        if self._state.inventory is None:
            self.ready.setText("Inspecting first: the NIC to test is picked from what the Pi has.")
        elif nic is None:
            self.ready.setText("Pick the NIC to test below.")
        else:
            # eth0 under br0: the route names the bridge, which is not among the cards
            why = f" {self._state.nic_note}" if self._state.nic_note else ""
            self.ready.setText(
                f"Ready to test {nic}: measure, apply the safe tweaks under a guard, "
                f"measure again.{why}"
            )

    def show_inventory(self, inventory: Inventory) -> None:
        clear_layout(self.cards)
        self.nic_cards = []
        self._group = QButtonGroup(self)
        self.cards.addWidget(BoardCard(inventory.board, self._colors))
        for nic in inventory.nics:
            findings = [f for f in inventory.findings if f.nic == nic.name]
            card = NicCard(nic, findings, self._colors, selected=nic.name == self._state.nic)
            card.chosen.connect(self.controller.choose_nic)
            self._group.addButton(card.pick)
            self.nic_cards.append(card)
            self.cards.addWidget(card)
        general = [f for f in inventory.findings if f.nic is None]
        if general or inventory.warnings or inventory.missing_tools:
            other = Card("Other findings")
            for finding in general:
                other.body.addWidget(FindingRow(finding, self._colors))
            unoffered, others = not_offered_line(list(inventory.warnings))
            if unoffered:
                line = label(unoffered, name="muted")
                # The commands and the kernel's answers, for those who know them (escaped:
                # the answers are the Pi's text, and a tooltip may read text as HTML).
                details = [warning_words(w) for w in inventory.warnings if w not in others]
                line.setToolTip("<br>".join(html.escape(d) for d in details))
                other.body.addWidget(line)
            for warning in others:
                other.body.addWidget(
                    label(f"Could not read {warning_words(warning)}", name="muted")
                )
            if inventory.missing_tools:
                tools = ", ".join(inventory.missing_tools)
                other.body.addWidget(label(f"Not installed on the Pi: {tools}", name="muted"))
            self.cards.addWidget(other)
        if not inventory.nics:
            self.cards.addWidget(label("No network interfaces were found.", name="errorText"))
        self._update_buttons()
        # A new Pi's hardware from its top (the board, the NIC to test), not at the scroll the
        # last Pi's page was left at (s10 walk: it opened on the other findings).
        self.verticalScrollBar().setValue(0)

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors
        for card in self.nic_cards:
            card.apply_theme(colors)
