"""The history store: devices, inventories, runs with their tests, tuning sessions (SQLite).

Every write is one transaction; WAL lets other connections (a second window, the CLI) read
meanwhile. Records are plain dataclasses; JSON columns hold what other packages own.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar, cast

from sbctune import paths
from sbctune.history.errors import (
    CannotWrite,
    HistoryError,
    NotFound,
    UnreadableRecord,
)
from sbctune.history.proof import (
    Calibration,
    latest_calibration,
    load_run_proof,
    save_calibration,
    save_run_proof,
)
from sbctune.history.records import (
    DIRECTIONS,
    MODES,
    DeviceRecord,
    Direction,
    Interval,
    Mode,
    RunRecord,
    TestRecord,
    TuningSessionRecord,
)
from sbctune.history.schema import classify, connect, connect_read_only, migrate
from sbctune.limits import parse_json
from sbctune.textsafe import visible

T = TypeVar("T")

log = logging.getLogger(__name__)

FILE_NAME = "history.sqlite3"

# The column lists are written out: each must match _run_values / _test_values in order.
_INSERT_RUN = """INSERT INTO runs (
    device_id, started_at, finished_at, plan_name, plan_json, nic, endpoint_kind,
    iperf3_pi_version, iperf3_pc_version, tuning_state_json, inventory_id, complete, note,
    aggregate_id, route_warning
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
_UPDATE_RUN = """UPDATE runs SET
    device_id = ?, started_at = ?, finished_at = ?, plan_name = ?, plan_json = ?, nic = ?,
    endpoint_kind = ?, iperf3_pi_version = ?, iperf3_pc_version = ?, tuning_state_json = ?,
    inventory_id = ?, complete = ?, note = ?, aggregate_id = ?, route_warning = ?
WHERE id = ?"""
_INSERT_TEST = """INSERT INTO tests (
    run_id, position, direction, mode, mean_mbps, min_mbps, max_mbps, stdev_mbps,
    sender_mbps, receiver_mbps, retransmits, complete, intervals_json, pi_cpu_json
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""


def default_path() -> Path:
    return paths.data_dir() / FILE_NAME


def now() -> datetime:
    return datetime.now(timezone.utc)


# --------------------------------------------------------------------------- conversions


def _time(value: datetime) -> str:
    # Stored in UTC so that text order is time order; naive values are taken as local time.
    return value.astimezone(timezone.utc).isoformat()


def _opt_time(value: datetime | None) -> str | None:
    return None if value is None else _time(value)


def _read_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _req_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _load(text: str | None) -> Any:
    return None if text is None else parse_json(text, "a stored value")


def _device(row: sqlite3.Row) -> DeviceRecord:
    return DeviceRecord(
        id=row["id"],
        host=row["host"],
        port=row["port"],
        user=row["user"],
        name=row["name"],
        first_seen=_req_time(row["first_seen"]),
        last_seen=_req_time(row["last_seen"]),
        last_inventory_id=row["last_inventory_id"],
    )


def _test_values(run_id: int, position: int, test: TestRecord) -> tuple[Any, ...]:
    if test.direction not in DIRECTIONS or test.mode not in MODES:
        raise ValueError(f"unknown test direction or mode: {test.direction!r}, {test.mode!r}")
    intervals = [[i.t, i.mbps, i.retransmits] for i in test.intervals]  # compact: many rows
    return (
        run_id, position, test.direction, test.mode, test.mean_mbps, test.min_mbps,
        test.max_mbps, test.stdev_mbps, test.sender_mbps, test.receiver_mbps, test.retransmits,
        int(test.complete), _dump(intervals), _dump(test.pi_cpu),
    )  # fmt: skip


def _test(row: sqlite3.Row) -> TestRecord:
    intervals = [Interval(t, mbps, retr) for t, mbps, retr in _load(row["intervals_json"]) or []]
    return TestRecord(
        id=row["id"],
        direction=cast(Direction, row["direction"]),
        mode=cast(Mode, row["mode"]),
        mean_mbps=row["mean_mbps"],
        min_mbps=row["min_mbps"],
        max_mbps=row["max_mbps"],
        stdev_mbps=row["stdev_mbps"],
        sender_mbps=row["sender_mbps"],
        receiver_mbps=row["receiver_mbps"],
        retransmits=row["retransmits"],
        complete=bool(row["complete"]),
        intervals=intervals,
        pi_cpu=_load(row["pi_cpu_json"]),
    )


def _tuning_session(row: sqlite3.Row) -> TuningSessionRecord:
    return TuningSessionRecord(
        id=row["id"],
        device_id=row["device_id"],
        started_at=_req_time(row["started_at"]),
        state=row["state"],
        data=parse_json(row["json"], "a tuning session"),
    )


def _run_values(run: RunRecord) -> tuple[Any, ...]:
    return (
        run.device_id, _time(run.started_at), _opt_time(run.finished_at), run.plan_name,
        _dump(run.plan), run.nic, run.endpoint_kind, run.iperf3_pi_version,
        run.iperf3_pc_version, _dump(run.tuning_state), run.inventory_id, int(run.complete),
        run.note, run.aggregate_id, run.route_warning,
    )  # fmt: skip


def _run(row: sqlite3.Row, tests: list[TestRecord]) -> RunRecord:
    return RunRecord(
        id=row["id"],
        device_id=row["device_id"],
        started_at=_req_time(row["started_at"]),
        finished_at=_read_time(row["finished_at"]),
        plan_name=row["plan_name"],
        plan=_load(row["plan_json"]),
        nic=row["nic"],
        endpoint_kind=row["endpoint_kind"],
        iperf3_pi_version=row["iperf3_pi_version"],
        iperf3_pc_version=row["iperf3_pc_version"],
        tuning_state=_load(row["tuning_state_json"]),
        inventory_id=row["inventory_id"],
        complete=bool(row["complete"]),
        note=row["note"],
        tests=tests,
        aggregate_id=row["aggregate_id"],
        route_warning=row["route_warning"],
    )


def _row_name(sql: str, row: sqlite3.Row) -> str:
    """'run 5', 'tests row 12': which record, from the table the query reads."""
    table = sql.split(" FROM ", 1)[1].split()[0] if " FROM " in sql else "record"
    names = {"runs": "run", "devices": "device", "inventories": "inventory",
             "tuning_sessions": "tuning session", "tests": "test"}  # fmt: skip
    try:
        number = row["id"]
    except (IndexError, KeyError):
        number = "?"
    return f"{names.get(table, table)} {number}"


# --------------------------------------------------------------------------- the store


_ADD_DEVICE = (
    "INSERT INTO devices (host, port, user, name, first_seen, last_seen) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (host, port, user) DO UPDATE SET "
    "last_seen = excluded.last_seen, name = coalesce(excluded.name, name)"
)
_ADD_DEVICE_KEEPING_NAME = _ADD_DEVICE.replace(
    "coalesce(excluded.name, name)", "coalesce(name, excluded.name)"
)


class History:
    """The history database. `History.open()` uses the user data directory."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, cannot_write: HistoryError | None = None
    ) -> None:
        self._conn = conn
        self._conn.row_factory = sqlite3.Row
        self.path = path
        self.cannot_write = cannot_write
        """Set when the history was opened for reading only (and why): writes raise it."""
        self.unreadable: list[str] = []
        """Records left out because they could not be read (one line each)."""

    @classmethod
    def open(cls, path: Path | None = None) -> History:
        """The history at ``path``; an existing one that cannot be written (permissions, a
        read-only disk, a full disk) opens for reading, so listing and comparing still work."""
        path = Path(path) if path is not None else default_path()
        try:
            return cls(connect(path), path)
        except CannotWrite as problem:
            if not path.is_file():
                raise
            return cls(connect_read_only(path), path, problem)

    @classmethod
    def open_or_stand_in(cls, path: Path | None = None) -> History:
        """The history, or, when it cannot be opened at all (damaged, newer, no folder), an
        empty stand-in in memory whose writes raise that error: a measurement still runs, and
        sbctune.history.keep puts it in a file instead."""
        try:
            path = Path(path) if path is not None else default_path()
        except OSError as exc:  # the data folder itself cannot be made
            path = Path(exc.filename or ".") / FILE_NAME
            return cls._stand_in(path, classify(path, exc))
        try:
            return cls.open(path)
        except HistoryError as problem:
            return cls._stand_in(path, problem)

    @classmethod
    def _stand_in(cls, path: Path, problem: HistoryError) -> History:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        migrate(conn, path)
        return cls(conn, path, problem)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction; SQLite's errors become messages the user can act on."""
        if self.cannot_write is not None:
            raise self.cannot_write
        with self._errors():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.IntegrityError as exc:
            raise HistoryError(
                f"The history refused a change ({exc}).",
                "It refers to a device, run or inventory that is not in the history.",
            ) from None
        except sqlite3.OperationalError as exc:  # busy, a full disk: not a damaged file
            raise classify(self.path, exc) from None
        except sqlite3.DatabaseError as exc:
            raise classify(self.path, exc) from None

    def _select(
        self,
        sql: str,
        args: tuple[Any, ...],
        decode: Callable[[sqlite3.Row], T],
        *,
        one: bool = False,
    ) -> list[T]:
        """Rows turned into records. One record that cannot be read (a damaged value, JSON
        nested 100 000 deep) is left out with a warning, never the whole history; asked for
        by itself (`one`), it is a clear error naming it."""
        with self._errors():
            rows = list(self._conn.execute(sql, args))
        found = []
        for row in rows:
            try:
                found.append(decode(row))
            except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
                what = _row_name(sql, row)
                detail = visible(str(exc))[:200]
                if one:
                    raise UnreadableRecord(self.path, what, detail) from None
                self.unreadable.append(f"{what} cannot be read ({detail}) and is left out")
                log.warning("sbctune: the history's %s", self.unreadable[-1])
        return found

    # ------------------------------------------------------------------ devices
    def add_device(
        self,
        host: str,
        port: int,
        user: str,
        name: str | None = None,
        *,
        seen_at: datetime | None = None,
        keep_name: bool = False,
    ) -> DeviceRecord:
        """Record a connection to a device (new, or seen again); returns it. `keep_name`: a
        name already known (the hostname the app shows since Connect) stays; `name` only
        names a device that has none."""
        seen = _time(seen_at or now())
        sql = _ADD_DEVICE_KEEPING_NAME if keep_name else _ADD_DEVICE
        with self._write() as conn:
            conn.execute(sql, (host, port, user, name, seen, seen))
        device = self.device_for(host, port, user)
        assert device is not None
        return device

    def device_for(self, host: str, port: int, user: str) -> DeviceRecord | None:
        sql = "SELECT * FROM devices WHERE host = ? AND port = ? AND user = ?"
        found = self._select(sql, (host, port, user), _device, one=True)
        return found[0] if found else None

    def device(self, device_id: int) -> DeviceRecord:
        found = self._select("SELECT * FROM devices WHERE id = ?", (device_id,), _device, one=True)
        if not found:
            raise NotFound(f"device {device_id}")
        return found[0]

    def devices(self) -> list[DeviceRecord]:
        """Most recently seen first."""
        return self._select("SELECT * FROM devices ORDER BY last_seen DESC", (), _device)

    def delete_device(self, device_id: int) -> bool:
        """Forget a device with its inventories, runs and tuning sessions."""
        with self._write() as conn:
            return conn.execute("DELETE FROM devices WHERE id = ?", (device_id,)).rowcount > 0

    # ------------------------------------------------------------------ inventories
    def save_inventory(
        self, device_id: int, inventory_json: dict[str, Any], *, taken_at: datetime | None = None
    ) -> int:
        """Keep an inventory; it becomes the device's latest."""
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO inventories (device_id, taken_at, json) VALUES (?, ?, ?)",
                (device_id, _time(taken_at or now()), json.dumps(inventory_json)),
            )
            inventory_id = int(cursor.lastrowid or 0)
            conn.execute(
                "UPDATE devices SET last_inventory_id = ? WHERE id = ?", (inventory_id, device_id)
            )
        return inventory_id

    def inventory(self, inventory_id: int) -> dict[str, Any]:
        sql = "SELECT id, json FROM inventories WHERE id = ?"
        found = self._select(
            sql, (inventory_id,), lambda row: parse_json(row["json"], "an inventory"), one=True
        )
        if not found:
            raise NotFound(f"inventory {inventory_id}")
        return cast(dict[str, Any], found[0])

    # ------------------------------------------------------------------ runs
    def save_run(self, run: RunRecord) -> int:
        """Insert a run with its tests, or (when `run.id` is set) replace both: a run is saved
        when it starts and again as it completes. Sets the ids on `run` and its tests."""
        with self._write() as conn:
            if run.id is None:
                cursor = conn.execute(_INSERT_RUN, _run_values(run))
                run_id = int(cursor.lastrowid or 0)
            else:
                run_id = run.id
                cursor = conn.execute(_UPDATE_RUN, (*_run_values(run), run_id))
                if cursor.rowcount == 0:
                    raise NotFound(f"run {run_id}")
                conn.execute("DELETE FROM tests WHERE run_id = ?", (run_id,))
            for position, test in enumerate(run.tests):
                cursor = conn.execute(_INSERT_TEST, _test_values(run_id, position, test))
                test.id = int(cursor.lastrowid or 0)
            save_run_proof(conn, run_id, run)
        run.id = run_id
        return run_id

    def run(self, run_id: int) -> RunRecord:
        found = self._select(
            "SELECT * FROM runs WHERE id = ?", (run_id,), self._run_with_tests, one=True
        )
        if not found:
            raise NotFound(f"run {run_id}")
        return found[0]

    def runs_for_device(self, device_id: int) -> list[RunRecord]:
        """Newest first, each with its tests."""
        sql = "SELECT * FROM runs WHERE device_id = ? ORDER BY started_at DESC, id DESC"
        return self._select(sql, (device_id,), self._run_with_tests)

    def runs_in_aggregate(self, aggregate_id: str) -> list[RunRecord]:
        """The runs measured together (one per NIC), in the order they were stored."""
        sql = "SELECT * FROM runs WHERE aggregate_id = ? ORDER BY id"
        return self._select(sql, (aggregate_id,), self._run_with_tests)

    def delete_run(self, run_id: int) -> bool:
        with self._write() as conn:
            return conn.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount > 0

    def _run_with_tests(self, row: sqlite3.Row) -> RunRecord:
        sql = "SELECT * FROM tests WHERE run_id = ? ORDER BY position"
        run = _run(row, self._select(sql, (row["id"],), _test))
        with self._errors():
            load_run_proof(self._conn, run)
        return run

    # ------------------------------------------------------------------ tuning sessions
    def save_tuning_session(self, record: TuningSessionRecord) -> int:
        """Insert, or update the state and details of an existing session."""
        with self._write() as conn:
            if record.id is None:
                cursor = conn.execute(
                    "INSERT INTO tuning_sessions (device_id, started_at, state, json) "
                    "VALUES (?, ?, ?, ?)",
                    (record.device_id, _time(record.started_at), record.state,
                     json.dumps(record.data)),
                )  # fmt: skip
                record.id = int(cursor.lastrowid or 0)
            elif not conn.execute(
                "UPDATE tuning_sessions SET state = ?, json = ? WHERE id = ?",
                (record.state, json.dumps(record.data), record.id),
            ).rowcount:
                raise NotFound(f"tuning session {record.id}")
        return record.id

    def tuning_sessions(self, device_id: int) -> list[TuningSessionRecord]:
        """Newest first."""
        sql = "SELECT * FROM tuning_sessions WHERE device_id = ? ORDER BY started_at DESC, id DESC"
        return self._select(sql, (device_id,), _tuning_session)

    # ------------------------------------------------------------------ A/A calibrations
    def save_calibration(self, cal: Calibration) -> int:
        with self._write() as conn:
            return save_calibration(conn, cal)

    def latest_calibration(self, device_id: int, nic: str | None) -> Calibration | None:
        with self._errors():
            return latest_calibration(self._conn, device_id, nic)
