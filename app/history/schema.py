"""The history database's schema, its ordered migrations, and opening a file safely.

The schema version is SQLite's `PRAGMA user_version`: migration N (1-based) turns a version
N-1 database into version N. A database written by a newer sbctune is refused (it may hold
what this version would misread or lose); an older one is migrated in one transaction, so a
crash half-way leaves it as it was. Never edit a released migration: append a new one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sbctune.history.errors import NewerSchema, NotAHistory
from sbctune.history.proof import MIGRATION_V5

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


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the database at `path`, or raise a HistoryError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # Autocommit mode: transactions are explicit (BEGIN ... COMMIT) in the store.
        conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    except sqlite3.Error as exc:
        raise NotAHistory(path, str(exc)) from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        _check_ours(conn, path)  # before WAL: a foreign file must stay untouched
        conn.execute("PRAGMA journal_mode = WAL")  # readers never wait for a writer
        migrate(conn, path)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise NotAHistory(path, str(exc)) from None
    except BaseException:
        conn.close()
        raise
    return conn
