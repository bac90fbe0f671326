"""The history database's schema, its ordered migrations, and opening a file safely.

The schema version is SQLite's `PRAGMA user_version`: migration N (1-based) turns a version
N-1 database into version N. A database written by a newer sbctune is refused (it may hold
what this version would misread or lose); an older one is migrated in one transaction, so a
crash half-way leaves it as it was. Never edit a released migration: append a new one.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from sbctune.history.errors import (
    CannotWrite,
    HistoryBusy,
    HistoryError,
    NewerSchema,
    NotAHistory,
)
from sbctune.history.proof import MIGRATION_V5
from sbctune.textsafe import visible

# PRAGMA application_id marks the file as ours ("SBTU"), so a foreign SQLite file is refused
# rather than having our tables added to it.
APPLICATION_ID = 0x53425455

_V1 = (
    """CREATE TABLE devices (
        id INTEGER PRIMARY KEY,
        host TEXT NOT NULL,
        port INTEGER NOT NULL,
        user TEXT NOT NULL,
        name TEXT,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        last_inventory_id INTEGER REFERENCES inventories(id) ON DELETE SET NULL,
        UNIQUE (host, port, user)
    )""",
    """CREATE TABLE inventories (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        taken_at TEXT NOT NULL,
        json TEXT NOT NULL
    )""",
    """CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        plan_name TEXT NOT NULL,
        plan_json TEXT,
        nic TEXT,
        endpoint_kind TEXT,
        iperf3_pi_version TEXT,
        iperf3_pc_version TEXT,
        tuning_state_json TEXT,
        inventory_id INTEGER REFERENCES inventories(id) ON DELETE SET NULL,
        complete INTEGER NOT NULL DEFAULT 0,
        note TEXT NOT NULL DEFAULT ''
    )""",
    """CREATE TABLE tests (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('pi_to_pc', 'pc_to_pi')),
        mode TEXT NOT NULL CHECK (mode IN ('half', 'full', 'full_throttled')),
        mean_mbps REAL,
        min_mbps REAL,
        max_mbps REAL,
        stdev_mbps REAL,
        sender_mbps REAL,
        receiver_mbps REAL,
        retransmits INTEGER,
        complete INTEGER NOT NULL DEFAULT 1,
        intervals_json TEXT NOT NULL DEFAULT '[]'
    )""",
)

# v2: the Pi sampler's CPU summary per test, tuning sessions, and indexes for the lists the
# app shows (runs of a device, tests of a run).
_V2 = (
    "ALTER TABLE tests ADD COLUMN pi_cpu_json TEXT",
    """CREATE TABLE tuning_sessions (
        id INTEGER PRIMARY KEY,
        device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        started_at TEXT NOT NULL,
        state TEXT NOT NULL,
        json TEXT NOT NULL
    )""",
    "CREATE INDEX runs_by_device ON runs (device_id, started_at)",
    "CREATE INDEX tests_by_run ON tests (run_id, position)",
    "CREATE INDEX inventories_by_device ON inventories (device_id, taken_at)",
)

# v3: runs measured together on several NICs (an aggregate, seed 004) share an id.
_V3 = (
    "ALTER TABLE runs ADD COLUMN aggregate_id TEXT",
    "CREATE INDEX runs_by_aggregate ON runs (aggregate_id) WHERE aggregate_id IS NOT NULL",
)

# v4: the route warning of a run on its own (the note is free text for people; advice needs to
# know whether the traffic went over the NIC, not whether some note exists).
_V4 = ("ALTER TABLE runs ADD COLUMN route_warning TEXT",)

# v5: each trial's mean, the Pi's state per run, A/A calibrations (sbctune.history.proof).
MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4, MIGRATION_V5)
CURRENT_VERSION = len(MIGRATIONS)


def _pragma(conn: sqlite3.Connection, name: str) -> int:
    return int(conn.execute(f"PRAGMA {name}").fetchone()[0])


def _check_ours(conn: sqlite3.Connection, path: Path) -> None:
    app_id = _pragma(conn, "application_id")
    version = _pragma(conn, "user_version")
    if app_id not in (0, APPLICATION_ID):
        raise NotAHistory(path, "it belongs to another program")
    if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise NotAHistory(path, "it holds tables that are not sbctune's")
    if version > CURRENT_VERSION:
        raise NewerSchema(path, version, CURRENT_VERSION)
    problem = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
    if problem != "ok":
        raise NotAHistory(path, str(problem))


def migrate(conn: sqlite3.Connection, path: Path) -> int:
    """Bring the database to CURRENT_VERSION; returns the version it had."""
    # IMMEDIATE: two sbctune processes opening an old file at once migrate it only once.
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = _pragma(conn, "user_version")
        if found > CURRENT_VERSION:
            raise NewerSchema(path, found, CURRENT_VERSION)
        for steps in MIGRATIONS[found:]:
            for statement in steps:
                conn.execute(statement)
        if found < CURRENT_VERSION:
            conn.execute(f"PRAGMA user_version = {CURRENT_VERSION:d}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found


# SQLite result codes (sqlite3.Error.sqlite_errorcode, Python 3.11+) that mean "this computer
# will not let us write", not "the file is damaged"; older Pythons fall back to the message.
_WRITE_CODES = {3: "permission denied", 8: "the file or its folder is read-only",
                13: "the disk is full", 14: "the file or its folder cannot be written"}  # fmt: skip
_WRITE_WORDS = (
    ("disk is full", "the disk is full"),
    ("readonly", "the file or its folder is read-only"),
    ("read-only", "the file or its folder is read-only"),
    ("unable to open", "the file or its folder cannot be written"),
    ("permission", "permission denied"),
)


_FULL_BELOW = 256 * 1024  # SQLite needs room for its journal and -shm file; tmpfs says EIO


def _cannot_write_reason(path: Path) -> str | None:
    """Why this process may not write the database at ``path`` (None: it may)."""
    folder = path.parent
    for target in (folder, path):
        if not target.exists():
            continue
        try:
            info = os.statvfs(target)  # posix-only: guarded (Windows: os.access below)
            read_only = bool(info.f_flag & os.ST_RDONLY)
            full = info.f_bavail * info.f_frsize < _FULL_BELOW
        except (AttributeError, OSError):
            read_only = full = False
        if read_only:
            return "the file system is read-only"
        if not os.access(target, os.W_OK):
            return f"{target} is not writable by you"
        if full:
            return "the disk is full"
    return None


BUSY_TIMEOUT_S = 10.0
"""How long SQLite retries a locked history before the command says it is busy."""
_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
_MAX_PROCESSES = 100_000  # /proc entries looked at for the lock's holder


def _says_busy(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def holders(path: Path) -> list[str]:
    """Names of the other processes that have `path` open (Linux /proc; [] where unknown)."""
    try:
        target = str(path.resolve())
        entries = [e for _, e in zip(range(_MAX_PROCESSES), os.scandir("/proc"), strict=False)]
    except OSError:
        return []
    names: list[str] = []
    for entry in entries:
        if not (entry.name.isascii() and entry.name.isdigit()) or int(entry.name) == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{entry.name}/fd")
            if any(_fd_target(entry.name, fd) == target for fd in fds):
                with open(f"/proc/{entry.name}/comm", encoding="utf-8", errors="replace") as fh:
                    names.append(f"{visible(fh.read(64).strip())} (pid {entry.name})")
        except OSError:
            continue
    return names[:5]


def _fd_target(pid: str, fd: str) -> str:
    try:
        return os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return ""


def classify(path: Path, exc: BaseException) -> HistoryError:
    """A SQLite or OS error as what it means for the user: cannot write here, or damaged."""
    if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return CannotWrite(path, _cannot_write_reason(path) or exc.strerror or str(exc))
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return CannotWrite(path, "the disk is full")
    reason = _cannot_write_reason(path)
    if reason:
        return CannotWrite(path, reason)
    code = getattr(exc, "sqlite_errorcode", None)
    if (isinstance(code, int) and code & 0xFF in _BUSY_CODES) or _says_busy(exc):
        return HistoryBusy(path, holders(path), BUSY_TIMEOUT_S)
    if isinstance(code, int) and code & 0xFF in _WRITE_CODES:
        return CannotWrite(path, _WRITE_CODES[code & 0xFF])
    text = str(exc).lower()
    for words, meaning in _WRITE_WORDS:
        if words in text:
            return CannotWrite(path, meaning)
    return NotAHistory(path, str(exc))


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the database at `path`, or raise a HistoryError
    (CannotWrite when only writing is impossible: see connect_read_only)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise classify(path, exc) from None
    try:
        # Autocommit mode: transactions are explicit (BEGIN ... COMMIT) in the store.
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise classify(path, exc) from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        _check_ours(conn, path)  # before WAL: a foreign file must stay untouched
        conn.execute("PRAGMA journal_mode = WAL")  # readers never wait for a writer
        migrate(conn, path)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise classify(path, exc) from None
    except BaseException:
        conn.close()
        raise
    return conn


def connect_read_only(path: Path) -> sqlite3.Connection:
    """Open an existing, current database for reading only (a read-only folder, disk or file).

    A WAL database needs its -shm file, which a read-only folder cannot hold: ``immutable``
    tells SQLite nobody writes it meanwhile, which holds where nobody can.
    """
    last: sqlite3.Error | None = None
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(
                f"{path.resolve().as_uri()}?{query}",
                uri=True,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_S,
            )
        except sqlite3.Error as exc:
            last = exc
            continue
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            _check_ours(conn, path)
            found = _pragma(conn, "user_version")
        except sqlite3.DatabaseError as exc:
            conn.close()
            last = exc
            continue
        except BaseException:
            conn.close()
            raise
        if found < CURRENT_VERSION:
            conn.close()
            raise CannotWrite(path, "it needs an upgrade to this version, which must write it")
        return conn
    if last is not None and _says_busy(last):
        raise HistoryBusy(path, holders(path), BUSY_TIMEOUT_S)
    raise NotAHistory(path, str(last))
