"""The box a measuring page shows instead of Start when the tuning on the Pi is not what the
step expects, as the session read it back: tuning in force before a baseline (walk 14, problem
2), nothing in force before "Measure again" (walk 15, problem 1). Each offers two honest
choices; the words are here, the page decides when the box shows."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton

from sbctune.ui.widgets.common import Card, label

NOTHING_TITLE = "Nothing is in force on the Pi"
NOTHING_TEXT = (
    "Nothing is in force on the Pi: this would be a second baseline, not the speed with the "
    "tuning. Tune first (then measure again), or measure as it is: the run is labelled as "
    "measured with nothing in force."
)

# Above a finished run that the tuning was in force for and that was put back since (a one-click
# flow keeps only what helped): "nothing in force" alone read as if the run below had been
# measured with nothing in force (walk 24, 800 x 600 after Tune & Measure).
SHOWN_RUN_TUNED = "The run below was measured with the tuning in force; it was put back since. "


@dataclass
class AskBox:
    card: Card
    text: QLabel
    first: QPushButton  # the step's main button while the box shows
    as_is: QPushButton  # "Measure as it is"


def _box(title: str, name: str, text: str, first: QPushButton, as_is_tip: str) -> AskBox:
    card = Card(title)
    card.setAccessibleName(name)
    words = label(text, selectable=True)
    card.body.addWidget(words)
    row = QHBoxLayout()
    first.setObjectName("primary")
    as_is = QPushButton("Measure as it &is")
    as_is.setToolTip(as_is_tip)
    row.addWidget(first)
    row.addWidget(as_is)
    row.addStretch(1)
    card.body.addLayout(row)
    card.hide()
    return AskBox(card, words, first, as_is)


def in_force_box() -> AskBox:
    """Before a baseline with tuning in force: revert first, or measure as it is."""
    revert = QPushButton("&Revert, then measure the baseline")
    revert.setToolTip(
        "Put back every tuning value on the Pi, read the Pi back to check nothing is in "
        "force, then measure the baseline."
    )
    return _box("Tuning is in force on the Pi", "Tuning in force before the baseline", "",
                revert, "Measure with the tuning in force. The run is labelled “with tuning in "
                "force” everywhere and is not called a baseline.")  # fmt: skip


def nothing_box() -> AskBox:
    """Measure again with nothing in force: go to Tune, or measure as it is."""
    return _box(NOTHING_TITLE, NOTHING_TITLE, NOTHING_TEXT, QPushButton("Go to &Tune"),
                "Measure with nothing in force. The run is labelled so and is not shown as "
                "the speed with the tuning.")  # fmt: skip
