"""The history: a SQLite store of devices, inventories, measurement runs and tuning sessions."""

from sbctune.history.errors import (
    CannotWrite,
    HistoryError,
    NewerSchema,
    NotAHistory,
    NotFound,
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
    "HistoryError",
    "Interval",
    "Mode",
    "NewerSchema",
    "NotAHistory",
    "NotFound",
    "RunRecord",
    "TestRecord",
    "TuningSessionRecord",
]
