"""The session's life on the Pi, run for real with `sh` in a temporary folder: the one-session
lock taken with the session, "armed" only once a guard runs, the listing that tells a guarded
session from one cut short, and the session record's schema (a newer one is refused)."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sbctune.remote import snippets
from sbctune.tuning import scripts
from sbctune.tuning.errors import SessionFormatError
from sbctune.tuning.model import Change, TweakOutcome
from sbctune.tuning.record import SCHEMA_VERSION, SessionRecord, read_record
from sbctune.tuning.remote_state import parse_listing

ID_A = "20250101T120000Z-aaaaaa"
ID_B = "20250101T120000Z-bbbbbb"
LOCK = scripts.lock_name("net:[4026531840]")


def record(session_id: str) -> SessionRecord:
    change = Change("sysctl", "net.core.rmem_max", "212992", "16777216", "/x/rmem_max")
    return SessionRecord(session_id, "eth0", 60, False, "2025-01-01T12:00:00+00:00",
                         "net:[1]", "pi", [TweakOutcome("socket-buffers", "planned", "", [change])],
                         options={"boot_test": False})  # fmt: skip


def create(root: Path, session_id: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["sh", "-c", scripts.CREATE, "sh", str(root), session_id, LOCK, "#revert\n",
         "#guard\n", json.dumps(record(session_id).to_json())],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    out, _err = proc.communicate(timeout=30)
    return proc.returncode, out


@pytest.mark.posix_only("runs the Pi's session scripts with /bin/sh")
def test_of_two_sessions_created_together_only_one_gets_the_pi(tmp_path: Path) -> None:
    for round_ in range(8):
        root = tmp_path / f"r{round_}" / "tuning"
        first, second = create(root, ID_A), create(root, ID_B)
        results = {ID_A: finish(first), ID_B: finish(second)}
        winners = [i for i, (code, _out) in results.items() if code == 0]
        assert len(winners) == 1, results
        loser = ID_B if winners == [ID_A] else ID_A
        code, out = results[loser]
        assert code == 75 and out.split()[:3] == ["busy", winners[0], "prepared"]
        assert not (root / loser).exists()
        assert (root / winners[0] / "state").read_text(encoding="utf-8") == "prepared\n"
        assert (root / winners[0] / "revert.sh").read_text(encoding="utf-8") == "#revert\n"
        assert (
            json.loads((root / winners[0] / "session.json").read_text(encoding="utf-8"))["id"]
            == winners[0]
        )
        assert (root / LOCK).readlink() == Path(f"sbctune-session:{winners[0]}")


@pytest.mark.posix_only("runs the Pi's session scripts with /bin/sh")
def test_a_lock_whose_session_ended_or_never_finished_is_taken_over(tmp_path: Path) -> None:
    root = tmp_path / "tuning"
    assert finish(create(root, ID_A))[0] == 0
    (root / ID_A / "state").write_text(
        "reverted\n", encoding="utf-8"
    )  # ended without giving the lock up
    assert finish(create(root, ID_B))[0] == 0
    # A session cut short while being created (no session.json yet) never armed: removed.
    (root / ID_B / "session.json").unlink()
    assert finish(create(root, "20250101T130000Z-cccccc"))[0] == 0
    assert not (root / ID_B).exists()


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", script, "sh", *args], capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip


def _local(script: str, root: Path, session_id: str) -> str:
    return script.replace(f"{scripts.STATE_ROOT}/{session_id}", str(root / session_id))


@pytest.mark.posix_only("runs the Pi's session scripts with /bin/sh")
def test_revert_and_confirm_give_the_lock_back(tmp_path: Path) -> None:
    root = tmp_path / "tuning"
    assert finish(create(root, ID_A))[0] == 0
    (root / ID_A / "state").write_text("armed\n", encoding="utf-8")
    assert _run(scripts.CONFIRM, str(root / ID_A)).stdout.split()[-1] == "confirmed"
    assert not (root / LOCK).is_symlink()
    assert finish(create(root, ID_B))[0] == 0
    revert = _local(scripts.revert_script(ID_B, []), root, ID_B)
    assert _run(revert).returncode == 0
    assert (root / ID_B / "state").read_text(encoding="utf-8") == "reverted\n"
    assert not (root / LOCK).is_symlink()


def _guard(root: Path, session_id: str) -> subprocess.Popen[bytes]:
    guard = root / session_id / "guard.sh"
    guard.write_text(
        _local(scripts.guard_script(session_id, 30), root, session_id), encoding="utf-8"
    )
    proc = subprocess.Popen(["sh", str(guard)], start_new_session=True)
    pid_file = root / session_id / "guard.pid"
    deadline = time.monotonic() + 10
    while (
        not (pid_file.exists() and pid_file.read_text(encoding="utf-8"))
        and time.monotonic() < deadline
    ):
        time.sleep(0.05)
    return proc


def _listing(root: Path) -> dict[str, tuple[str, bool | None, bool]]:
    result = subprocess.run(["sh", "-c", scripts.LIST, "sh", str(root)], capture_output=True,
                            timeout=30, check=True)  # fmt: skip
    _netns, sessions = parse_listing(result.stdout)
    return {s.id: (s.state, s.guard_running, s.as_leftover().orphaned) for s in sessions}


@pytest.mark.posix_only("runs the Pi's session scripts with /bin/sh")
def test_armed_only_once_the_guard_runs_and_a_dead_guard_is_found(tmp_path: Path) -> None:
    root = tmp_path / "tuning"
    assert finish(create(root, ID_A))[0] == 0
    directory = str(root / ID_A)
    refused = _run(scripts.MARK_ARMED, directory)
    assert refused.returncode == 3 and "guard is not running" in refused.stderr
    assert _listing(root) == {ID_A: ("prepared", False, True)}  # cut short before arming
    guard = _guard(root, ID_A)
    try:
        assert _run(scripts.MARK_ARMED, directory).returncode == 0
        assert _listing(root) == {ID_A: ("armed", True, False)}
    finally:
        guard.send_signal(signal.SIGKILL)
        guard.wait(timeout=10)
    assert _listing(root) == {ID_A: ("armed", False, True)}  # e.g. a reboot ended the guard


def test_the_record_round_trips_and_old_records_still_read() -> None:
    data = record(ID_A).to_json()
    assert data["schema"] == SCHEMA_VERSION
    assert read_record(json.loads(json.dumps(data))) == record(ID_A)
    del data["schema"]  # written before the key existed: schema 1
    assert read_record(data).id == ID_A


def test_a_record_of_a_newer_schema_is_refused_with_what_to_do() -> None:
    data = {**record(ID_A).to_json(), "schema": SCHEMA_VERSION + 1, "tweaks": "new shape"}
    with pytest.raises(SessionFormatError) as caught:
        read_record(data)
    assert "written by a newer sbctune" in caught.value.message
    assert f"format {SCHEMA_VERSION + 1}" in caught.value.message
    assert "Update sbctune" in caught.value.hint
    assert f"{scripts.STATE_ROOT}/{ID_A}/revert.sh" in caught.value.hint
    fields = ["net:[1]", "1700000000", f"/x/{ID_A}/", "armed", json.dumps(data), "", "1", "", ""]
    listing = "\0".join(fields)
    (stored,) = parse_listing(listing.encode())[1]
    assert stored.record is None and "newer sbctune" in stored.problem
    with pytest.raises(SessionFormatError, match="newer sbctune"):
        stored.readable()


@pytest.mark.parametrize(
    "data",
    [[], {"id": ID_A, "schema": "2"}, {"id": ID_A, "tweaks": [{"status": "applied"}]},
     {"id": "../../etc", "schema": 1}, {"id": ID_A, "guard_seconds": "90"}],
)  # fmt: skip
def test_a_damaged_record_is_a_clear_error(data: object) -> None:
    with pytest.raises(SessionFormatError, match="cannot be read"):
        read_record(data)


@pytest.mark.posix_only("runs the Pi's session scripts with /bin/sh")
def test_one_write_helper_writes_atomically_with_umask_022(tmp_path: Path) -> None:
    target = tmp_path / "file"
    result = subprocess.run(
        ["sh", "-c", "umask 000; " + snippets.WRITE_FILE, "sh", "a\n$(x) 'b'", str(target)],
        timeout=30, check=False,
    )  # fmt: skip
    assert result.returncode == 0
    assert target.read_text(encoding="utf-8") == "a\n$(x) 'b'"
    assert target.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["file"]  # no temporary file left
    bad = subprocess.run(snippets.write_file_argv(str(tmp_path / "no" / "f"), "x"), timeout=30,
                         capture_output=True, check=False)  # fmt: skip
    assert bad.returncode != 0
