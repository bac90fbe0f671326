"""The Devices and History pages' view of the history store: the pages never open it."""

from __future__ import annotations

from sbctune.compare.calibration import calibration_for
from sbctune.compare.state_diff import change_lines
from sbctune.history import History
from sbctune.history.errors import HistoryError
from sbctune.history.records import DeviceRecord, RunRecord
from sbctune.history.run_tuning import tweaks_in_force
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL
from sbctune.textsafe import visible

__all__ = [
    "DIRECTION_LABEL",
    "MODE_LABEL",
    "DeviceRecord",
    "RecordsController",
    "RunRecord",
    "ran_tuned",
]


def ran_tuned(run: RunRecord) -> bool:
    """Whether the run was measured with some tuning in force (as read back from the Pi)."""
    return bool(tweaks_in_force(run))


class RecordsController:
    """Devices and their runs, as stored; forgetting one asks the page's user first."""

    def __init__(self, history: History) -> None:
        self._history = history

    def devices(self) -> list[DeviceRecord]:
        return self._history.devices()

    def board(self, device: DeviceRecord) -> str | None:
        """The board model its latest inventory read ("Raspberry Pi 5 Model B Rev 1.0"), made
        visible (text from the Pi); None when none was kept or it names no model."""
        if device.last_inventory_id is None:
            return None
        try:
            board = self._history.inventory(device.last_inventory_id).get("board")
        except HistoryError:  # a damaged or missing inventory: the device is still listed
            return None
        model = board.get("model") if isinstance(board, dict) else None
        return visible(model) if isinstance(model, str) and model else None

    def runs_for_device(self, device_id: int) -> list[RunRecord]:
        return self._history.runs_for_device(device_id)

    def forget_device(self, device_id: int) -> None:
        """The device with all its runs and tuning records."""
        self._history.delete_device(device_id)

    def forget_run(self, run_id: int) -> None:
        self._history.delete_run(run_id)

    def calibration(self, runs: list[RunRecord]) -> dict[str, float]:
        """The newest A/A spread of the runs' Pi and NIC ({} when never calibrated)."""
        return calibration_for(self._history, runs)

    @staticmethod
    def changes(runs: list[RunRecord]) -> list[tuple[str, list[str]]]:
        """What changed on the Pi from the first run to each later one (settings, tweaks)."""
        first = runs[0]
        # The settings' names and values were read from the Pi: shown through textsafe.
        return [
            (f"#{first.id} → #{run.id}", [visible(line) for line in change_lines(first, run)])
            for run in runs[1:]
        ]
