"""The history: a SQLite store of devices, inventories, measurement runs and tuning sessions."""

from sbctune.history.errors import (
    CannotWrite,
    HistoryBusy,
    HistoryError,
    NewerSchema,
    NotAHistory,
    NotFound,
    UnreadableRecord,
)
from sbctune.history.records import (
    DeviceRecord,
    Direction,
    Interval,
    Mode,
    RunRecord,
    TestRecord,
    TuningSessionRecord,
)
from sbctune.history.schema import CURRENT_VERSION
from sbctune.history.store import History

__all__ = [
    "CURRENT_VERSION",
    "CannotWrite",
    "DeviceRecord",
    "Direction",
    "History",
    "HistoryBusy",
    "HistoryError",
    "Interval",
    "Mode",
    "NewerSchema",
    "NotAHistory",
    "NotFound",
    "RunRecord",
    "TestRecord",
    "TuningSessionRecord",
    "UnreadableRecord",
]
