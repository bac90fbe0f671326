"""The Baseline / Measure again page's big figures: the running test's, then the stored run's,
each under a title that says which figure it is."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QLabel

from sbctune.ui.controllers.live import LATENCY_WINDOW_S, Direction
from sbctune.ui.controllers.records import DIRECTION_LABEL, RunRecord
from sbctune.ui.mode_words import mode_words
from sbctune.ui.settings import Units
from sbctune.ui.units import rate
from sbctune.ui.widgets.common import Card

BIG_DIRECTIONS: tuple[Direction, Direction] = ("pi_to_pc", "pc_to_pi")


def running_title(direction: Direction) -> str:
    return f"{DIRECTION_LABEL[direction]}, this test"


def run_title(direction: Direction, mode: str, trials: int, *, several_modes: bool) -> str:
    """The big figure's title once the run is stored: what the figure is, as the table says."""
    what = DIRECTION_LABEL[direction] + (f" {mode_words(mode).lower()}" if several_modes else "")
    if trials > 1:
        return f"{what}, mean of {trials} trials"
    return f"{what}, this run"


def show_run_figures(cards: Sequence[tuple[Card, QLabel]], record: RunRecord, units: Units) -> None:
    """Once the run is stored, the big figures are the table's: each direction's mean of its
    trials (its first row), and the card says so (walk 15: the card kept the last trial's
    833.3 Mbit/s over a table saying 830.6 for the same thing)."""
    for (card, big), direction in zip(cards, BIG_DIRECTIONS, strict=True):
        tests = [t for t in record.tests if t.direction == direction]
        if not tests:  # stopped before it (walk19: "PC → Pi, this test" stayed beside "this run")
            big.setText("–")
            card.title.setText(f"{DIRECTION_LABEL[direction]}, not measured")
            continue
        test = tests[0]
        big.setText(rate(test.mean_mbps, units))
        card.title.setText(
            run_title(direction, test.mode, len(test.trial_means), several_modes=len(tests) > 1)
        )


def latency_text(loaded: float | None, idle: float | None, lost: int) -> str:
    """The line under the latency plot: the median round trip of the last seconds, under load
    and on the idle link (LiveMeasurement.latest_latency)."""
    if loaded is None and idle is None:
        return "Latency: – (probes not answered yet)" if lost else "Latency: –"
    parts = []
    if loaded is not None:
        parts.append(f"{loaded:.1f} ms under load")
    if idle is not None:
        parts.append(f"{idle:.1f} ms idle")
    lost_text = f", {lost} probes lost" if lost else ""
    window = f"{LATENCY_WINDOW_S:g} s"
    return f"Latency, median of the last {window}: " + ", ".join(parts) + lost_text
