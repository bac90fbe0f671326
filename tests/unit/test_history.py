"""The history store: round trips, listings, migrations, refusals and damaged files."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, cast

import pytest

from sbctune.errors import UserError
from sbctune.history import (
    CURRENT_VERSION,
    History,
    HistoryError,
    Interval,
    NewerSchema,
    NotAHistory,
    NotFound,
    RunRecord,
    TestRecord,
    TuningSessionRecord,
    UnreadableRecord,
)
from sbctune.history.schema import APPLICATION_ID

T0 = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=timezone(timedelta(hours=1)))


@pytest.fixture
def history(tmp_path: Path) -> Any:
    with History.open(tmp_path / "history.sqlite3") as store:
        yield store


def _run(device_id: int, started: datetime = T0, **changes: Any) -> RunRecord:
    fields: dict[str, Any] = {
        "device_id": device_id,
        "started_at": started,
        "finished_at": started + timedelta(minutes=5, seconds=3),
        "plan_name": "thorough",
        "plan": {"streams": 10, "seconds": 65, "omit": 5, "modes": ["half", "full"]},
        "nic": "eth1",
        "endpoint_kind": "builtin",
        "iperf3_pi_version": "3.12",
        "iperf3_pc_version": None,
        "tuning_state": {"rps": {"eth1": "f"}, "governor": "performance"},
        "inventory_id": None,
        "complete": True,
        "note": "after tuning: ünïcødé, 'quotes'; DROP TABLE runs;",
        "tests": [
            TestRecord(
                direction="pi_to_pc",
                mode="half",
                mean_mbps=736.25,
                min_mbps=701.5,
                max_mbps=749.0,
                stdev_mbps=9.875,
                sender_mbps=737.0,
                receiver_mbps=736.1,
                retransmits=12,
                intervals=[Interval(1.0, 730.5, 0), Interval(2.0, 741.25, 3), Interval(3.0, 0.1)],
                pi_cpu={"busiest_core": 0, "cores": [{"cpu": 0, "mean_busy": 99.5}]},
            ),
            TestRecord(direction="pc_to_pi", mode="full_throttled", complete=False),
        ],
    }
    fields.update(changes)
    return RunRecord(**fields)


# --------------------------------------------------------------------------- round trips


def test_run_round_trips_every_field(history: History) -> None:
    device = history.add_device("198.18.0.2", 22, "pi", "Pi 4")
    assert device.id is not None
    run = _run(device.id)
    run_id = history.save_run(run)
    assert run.id == run_id and all(t.id for t in run.tests)
    got = history.run(run_id)
    assert got == run  # dataclass equality: every field, tests and intervals included
    assert got.started_at == T0 and got.started_at.tzinfo is not None
    assert got.tests[0].intervals[2].retransmits is None


def test_saving_again_replaces_the_run_and_its_tests(history: History) -> None:
    device = history.add_device("pi.local", 22, "pi")
    assert device.id is not None
    run = _run(device.id, complete=False, finished_at=None, tests=[])
    history.save_run(run)  # saved as the run starts
    run.tests = _run(device.id).tests
    run.complete, run.finished_at = True, T0 + timedelta(minutes=2)
    history.save_run(run)
    assert history.run(cast(int, run.id)) == run
    assert len(history.runs_for_device(device.id)) == 1


def test_runs_are_listed_per_device_newest_first(history: History) -> None:
    a = cast(int, history.add_device("a", 22, "pi").id)
    b = cast(int, history.add_device("b", 2222, "pi").id)
    first = history.save_run(_run(a, T0))
    second = history.save_run(_run(a, T0 + timedelta(hours=1)))
    other = history.save_run(_run(b, T0 + timedelta(hours=2)))
    assert [r.id for r in history.runs_for_device(a)] == [second, first]
    assert [r.id for r in history.runs_for_device(b)] == [other]
    assert all(len(r.tests) == 2 for r in history.runs_for_device(a))


def test_devices_are_upserted_by_host_port_user(history: History) -> None:
    first = history.add_device("pi.local", 22, "pi", "Pi 4", seen_at=T0)
    again = history.add_device("pi.local", 22, "pi", seen_at=T0 + timedelta(days=1))
    other = history.add_device("pi.local", 22, "root", seen_at=T0 + timedelta(hours=1))
    assert again.id == first.id != other.id
    assert again.first_seen == T0 and again.last_seen == T0 + timedelta(days=1)
    assert again.name == "Pi 4"  # not forgotten when the name is not given again
    assert history.device_for("pi.local", 22, "pi") == again
    assert history.device_for("pi.local", 2222, "pi") is None
    assert [d.id for d in history.devices()] == [again.id, other.id]


def test_inventories_and_deleting_a_device(history: History) -> None:
    device_id = cast(int, history.add_device("pi", 22, "pi").id)
    inventory = {"board": {"model": "Raspberry Pi 4 Model B Rev 1.4"}, "nics": [{"name": "eth1"}]}
    inventory_id = history.save_inventory(device_id, inventory)
    assert history.inventory(inventory_id) == inventory
    assert history.device(device_id).last_inventory_id == inventory_id
    history.save_run(_run(device_id, inventory_id=inventory_id))
    assert history.delete_device(device_id)
    assert history.devices() == [] and history.runs_for_device(device_id) == []
    with pytest.raises(NotFound):
        history.inventory(inventory_id)


def test_delete_run_takes_its_tests(history: History, tmp_path: Path) -> None:
    device_id = cast(int, history.add_device("pi", 22, "pi").id)
    run_id = history.save_run(_run(device_id))
    assert history.delete_run(run_id)
    assert not history.delete_run(run_id)
    with pytest.raises(NotFound) as caught:
        history.run(run_id)
    assert isinstance(caught.value, UserError)
    with sqlite3.connect(tmp_path / "history.sqlite3") as raw:
        assert raw.execute("SELECT count(*) FROM tests").fetchone()[0] == 0


def test_tuning_sessions(history: History) -> None:
    device_id = cast(int, history.add_device("pi", 22, "pi").id)
    session = TuningSessionRecord(device_id, T0, "armed", {"tweaks": ["rps"], "guard_s": 60})
    history.save_tuning_session(session)
    session.state = "confirmed"
    history.save_tuning_session(session)
    assert history.tuning_sessions(device_id) == [session]


# --------------------------------------------------------------------------- transactions


def test_a_failed_write_leaves_nothing_behind(history: History) -> None:
    device_id = cast(int, history.add_device("pi", 22, "pi").id)
    bad = _run(device_id)
    bad.tests.append(TestRecord(direction="sideways", mode="half"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        history.save_run(bad)
    assert history.runs_for_device(device_id) == []


def test_a_run_of_an_unknown_device_is_refused_clearly(history: History) -> None:
    with pytest.raises(HistoryError, match="refused"):
        history.save_run(_run(12345))


def test_readers_see_committed_data_while_a_write_is_open(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History.open(path) as writer, History.open(path) as reader:
        writer.add_device("one", 22, "pi")
        raw = writer._conn
        raw.execute("BEGIN IMMEDIATE")
        raw.execute(
            "INSERT INTO devices (host, port, user, first_seen, last_seen) "
            "VALUES ('two', 22, 'pi', '2025-01-01T00:00:00+00:00', '2025-01-01T00:00:00+00:00')"
        )
        assert [d.host for d in reader.devices()] == ["one"]  # WAL: no wait, no dirty read
        raw.execute("COMMIT")
        assert sorted(d.host for d in reader.devices()) == ["one", "two"]


def test_default_path_is_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    with History.open() as store:
        assert store.path == tmp_path / "data" / "history.sqlite3"
        assert store.path.is_file()


# --------------------------------------------------------------------------- versions

# Schema version 1 exactly as sbctune wrote it (written out here on purpose: the test must not
# change when the code's migrations do).
V1 = """
CREATE TABLE devices (id INTEGER PRIMARY KEY, host TEXT NOT NULL, port INTEGER NOT NULL,
    user TEXT NOT NULL, name TEXT, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL,
    last_inventory_id INTEGER REFERENCES inventories(id) ON DELETE SET NULL,
    UNIQUE (host, port, user));
CREATE TABLE inventories (id INTEGER PRIMARY KEY,
    device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    taken_at TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY,
    device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    started_at TEXT NOT NULL, finished_at TEXT, plan_name TEXT NOT NULL, plan_json TEXT,
    nic TEXT, endpoint_kind TEXT, iperf3_pi_version TEXT, iperf3_pc_version TEXT,
    tuning_state_json TEXT, inventory_id INTEGER REFERENCES inventories(id) ON DELETE SET NULL,
    complete INTEGER NOT NULL DEFAULT 0, note TEXT NOT NULL DEFAULT '');
CREATE TABLE tests (id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('pi_to_pc', 'pc_to_pi')),
    mode TEXT NOT NULL CHECK (mode IN ('half', 'full', 'full_throttled')),
    mean_mbps REAL, min_mbps REAL, max_mbps REAL, stdev_mbps REAL, sender_mbps REAL,
    receiver_mbps REAL, retransmits INTEGER, complete INTEGER NOT NULL DEFAULT 1,
    intervals_json TEXT NOT NULL DEFAULT '[]');
INSERT INTO devices VALUES (1, 'pi.local', 22, 'pi', 'old Pi', '2024-01-01T00:00:00+00:00',
    '2024-01-02T00:00:00+00:00', NULL);
INSERT INTO runs VALUES (7, 1, '2024-01-02T00:00:00+00:00', NULL, 'quick', NULL, 'eth0',
    'system', '3.9', '3.16', NULL, NULL, 1, '');
INSERT INTO tests VALUES (1, 7, 0, 'pi_to_pc', 'half', 940.5, 930.0, 945.0, 1.5, 941.0, 940.5,
    0, 1, '[[1.0, 940.5, 0]]');
"""


def _make_db(path: Path, script: str, version: int, app_id: int = APPLICATION_ID) -> None:
    with sqlite3.connect(path) as raw:
        raw.executescript(script)
        raw.execute(f"PRAGMA user_version = {version}")
        raw.execute(f"PRAGMA application_id = {app_id}")
    raw.close()


def test_an_older_database_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _make_db(path, V1, version=1)
    with History.open(path) as store:
        (run,) = store.runs_for_device(1)
        assert (run.id, run.plan_name, run.nic, run.complete) == (7, "quick", "eth0", True)
        assert run.tests[0].intervals == [Interval(1.0, 940.5, 0)]
        assert run.tests[0].pi_cpu is None  # the column v2 added
        store.save_tuning_session(TuningSessionRecord(1, T0, "armed"))  # v2's table
        run.tests[0].pi_cpu = {"busiest_core": 1}
        store.save_run(run)
        assert store.run(7) == run
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION
    raw.close()


def test_a_newer_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    _make_db(path, V1, version=CURRENT_VERSION + 1)
    before = path.read_bytes()
    with pytest.raises(NewerSchema) as caught:
        History.open(path)
    assert isinstance(caught.value, UserError)
    assert "written by a newer sbctune" in caught.value.message
    assert caught.value.hint
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database at all\n" * 100,
        b"SQLite format 3\x00" + b"\xff" * 4000,
        bytes(range(256)) * 64,
    ],
)
def test_a_corrupt_file_gives_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(content)
    with pytest.raises(NotAHistory) as caught:
        History.open(path)
    assert isinstance(caught.value, UserError)
    assert str(path) in caught.value.message and "damaged" in caught.value.message
    assert path.read_bytes() == content


def test_a_damaged_page_inside_a_real_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with History.open(path) as store:
        device_id = cast(int, store.add_device("pi", 22, "pi").id)
        for hour in range(40):
            store.save_run(_run(device_id, T0 + timedelta(hours=hour)))
    with sqlite3.connect(path) as raw:  # fold the WAL back in so the pages are in the file
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        raw.execute("PRAGMA journal_mode = DELETE")
    raw.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[2 * page : 4 * page] = b"\x5a" * (2 * page)  # scribble over two b-tree pages
    path.write_bytes(bytes(data))
    with pytest.raises(UserError, match="damaged"), History.open(path) as store:
        store.runs_for_device(device_id)


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "places.sqlite"
    _make_db(path, "CREATE TABLE places (id INTEGER PRIMARY KEY, url TEXT);", 0, app_id=0)
    before = path.read_bytes()
    with pytest.raises(NotAHistory, match="not sbctune's"):
        History.open(path)
    assert path.read_bytes() == before


def test_an_unreadable_value_is_left_out_or_named(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with History.open(path) as store:
        good = store.add_device("pi2", 22, "pi")
        store._conn.execute(
            "INSERT INTO devices (host, port, user, first_seen, last_seen) "
            "VALUES ('pi', 22, 'pi', 'yesterday', 'today')"
        )
        assert [d.id for d in store.devices()] == [good.id]  # the rest is still usable
        assert store.unreadable == [
            "device 2 cannot be read (Invalid isoformat string: 'yesterday') and is left out"
        ]
        with pytest.raises(UnreadableRecord, match=r"device 2 in the history .* cannot be read"):
            store.device(2)
