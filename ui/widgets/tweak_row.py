"""One tweak on the Tune page: its checkbox and title, badges, why, what it will do, and the
commands on request. A row says where it stands in plain words: held back because it would drop
the link this app talks through (or planned, once the user agreed), and measured alone on this
Pi as no help (not ticked then)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPlainTextEdit, QToolButton

from sbctune.ui.controllers.tuning import PlannedTweak
from sbctune.ui.reason_words import source_tooltip, without_sources
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import Badge, Card, label
from sbctune.wording import spoken
from sbctune.workflow.link_consent import agreed_row_text, held_row_text
from sbctune.workflow.tuning_words import (
    left_out_words,
    measured_row_text,
    plan_reason,
    setting_words,
)

RISK_COLOR = {"low": "good", "medium": "warning", "high": "problem"}
HELD_BADGE = "held back"
AGREED_BADGE = "drops the link briefly"
NO_GAIN_BADGE = "measured: no gain"
HELD_COMMANDS = "(held back: no command is planned for it)"
AGREED_COMMANDS = "(planned with your consent: its commands are worked out when it is applied)"


def impossible_text(impossible: list[tuple[str, str]]) -> str:
    """ "Not possible here: TCP segmentation offload (eth0 -K tso), fixed off by the driver"."""
    parts = [f"{setting_words(target)}, {without_sources(why)}" for target, why in impossible]
    return "Not possible here: " + "; ".join(parts) if parts else ""


class TweakRow(Card):
    """One tweak: checkbox with its title, badges, why, and the commands on request."""

    def __init__(
        self, item: PlannedTweak, checked: bool, colors: Colors, measured: str | None = None
    ) -> None:
        """`measured`: what the tweak did alone on this Pi when "Find what helps" found it no
        help (it is not ticked then, and the row says why)."""
        super().__init__("")
        tweak = item.tweak
        self.tweak_id: str = tweak.id
        self._colors = colors
        self.held = item.needs_link_consent  # held back for the link until the user agrees
        self.recommended = tweak.recommended and not tweak.advanced
        self.check = QCheckBox(tweak.title)
        self.check.setObjectName(f"tweak-{tweak.id}")
        self.check.setChecked(checked)
        self.check.setEnabled(item.applicable and not item.already)
        self.header.insertWidget(0, self.check, 1)
        self.title.hide()
        self.body.addLayout(self._badges(item, colors))
        self._words(item)
        self._commands(item)
        self._wire()
        if measured is not None:
            self.measured_no_help(measured)

    def _badges(self, item: PlannedTweak, colors: Colors) -> QHBoxLayout:
        """Its risk, reboot and advanced badges, where it stands (already set, held back, left
        out), and the ones shown later: measured as no help, on the Pi now."""
        tweak = item.tweak
        self.badges = [Badge(f"{tweak.risk} risk", RISK_COLOR.get(tweak.risk, "info"), colors)]
        if tweak.needs_reboot:
            self.badges.append(Badge("needs reboot", "warning", colors))
        if tweak.advanced:
            self.badges.append(Badge("advanced", "info", colors))
        if item.already:
            self.badges.append(Badge("already set", "good", colors))
        elif self.held:
            self.badges.append(Badge(HELD_BADGE, "warning", colors))
        elif not item.applicable:  # not possible, or not needed here (model.NotNeeded)
            self.badges.append(Badge(left_out_words(item), "muted", colors))
        self.state_badge = self.badges[-1]
        self.no_gain_badge = Badge(NO_GAIN_BADGE, "muted", colors)
        self.no_gain_badge.hide()
        self.badges.append(self.no_gain_badge)
        # Where it stands on the Pi now: "on trial" under the guard, "in force" once kept.
        self.in_force_badge = Badge("", "good", colors)
        self.in_force_badge.setAccessibleName("On the Pi now")
        self.in_force_badge.hide()
        self.badges.append(self.in_force_badge)
        # The badges get a line of their own: beside a long title they made the card, and with
        # it the page, wider than a small window.
        badges = QHBoxLayout()
        badges.setSpacing(6)
        for badge in self.badges:
            badges.addWidget(badge)
        badges.addStretch(1)
        return badges

    def _words(self, item: PlannedTweak) -> None:
        """Why it fits this Pi, why it is held back or what it will do, the parts the driver or
        kernel refuses, and (later) what it did alone."""
        self.why = label(item.why or item.tweak.why)  # for this board and NIC (why_words.py)
        self.body.addWidget(self.why)
        # Held back: the reason in plain words (the planner's names the driver's functions).
        self.reason = label(
            held_row_text()
            if self.held
            # a command the planner marks with backticks reads in quotation marks (wording.py)
            else spoken(without_sources(plan_reason(item.reason, item.impossible))),
            name="muted",
        )
        if not self.held and item.reason:
            self.reason.setToolTip(source_tooltip(item.reason))  # the kernel source it cites
        self.reason.setVisible(bool(self.reason.text()))
        self.body.addWidget(self.reason)
        # The parts the driver or kernel refuses (the s12 walk: a Pi 5's offloads row said
        # "GRO/GSO/TSO on", "already set", while TSO was fixed off by the driver).
        self.impossible = label(impossible_text(item.impossible), name="muted")
        self.impossible.setVisible(bool(item.impossible) and not self.held)
        self.body.addWidget(self.impossible)
        self.measured = label("", name="muted")
        self.measured.hide()
        self.body.addWidget(self.measured)

    def _commands(self, item: PlannedTweak) -> None:
        """The exact commands, shown on request."""
        commands = list(item.commands)
        none = HELD_COMMANDS if self.held else "(no command: nothing to change)"
        self.preview = QPlainTextEdit("\n".join(commands) or none)
        self.preview.setReadOnly(True)
        self.preview.setObjectName("commands")  # shown when asked for: the exact commands
        self.preview.setAccessibleName(f"Commands of {item.tweak.title}")
        self.preview.setMaximumHeight(110)
        self.preview.hide()
        self.toggle = QToolButton()
        self.toggle.setText("Show commands")
        self.toggle.setCheckable(True)
        self.body.addWidget(self.toggle)
        self.body.addWidget(self.preview)

    def _wire(self) -> None:
        self.toggle.toggled.connect(self.preview.setVisible)
        self.toggle.toggled.connect(
            lambda on: self.toggle.setText("Hide commands" if on else "Show commands")
        )

    def consent_decided(self, allow: bool) -> None:
        """The user answered the question about the link (before the one click or "Find what
        helps"): a held row is planned now (ticked as the recommended set would be), or stays
        held back; the page plans it properly when it next plans."""
        if not self.held:
            return
        self.check.setEnabled(allow)
        self.check.setChecked(allow and self.recommended and self.no_gain_badge.isHidden())
        self.state_badge.setText(AGREED_BADGE if allow else HELD_BADGE)
        self.reason.setText(agreed_row_text() if allow else held_row_text())
        self.preview.setPlainText(AGREED_COMMANDS if allow else HELD_COMMANDS)

    def measured_no_help(self, what: str) -> None:
        """ "Find what helps" measured it alone here as no help: not ticked, and why."""
        self.check.setChecked(False)
        self.no_gain_badge.show()
        self.measured.setText(measured_row_text(what))
        self.measured.show()

    def mark(self, text: str | None) -> None:
        """The tweak's state on the Pi now ("on trial", "in force"), or none."""
        self.in_force_badge.setText(text or "")
        self.in_force_badge.setVisible(bool(text))

    def apply_theme(self, colors: Colors) -> None:
        for badge in self.badges:
            badge.restyle(colors)
