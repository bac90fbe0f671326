"""The history on a read-only or full disk, and a measurement that the history cannot take.

A read-only file system and a full one are real mounts made here (a small tmpfs; root, like
the lab) and removed after each test: permission bits alone would not stop root.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sbctune.history import CannotWrite, History
from sbctune.history.keep import UNSAVED_PREFIX, keep
from tests.unit.export.seed_runs import seed_history

pytest_plugins = ["tests.lab_support"]


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (as the lab does)")
    mounted: list[Path] = []

    def make(size: str) -> Path:
        where = tmp_path / f"fs{len(mounted)}"
        where.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                        str(where)], check=True)  # fmt: skip
        mounted.append(where)
        return where

    try:
        yield make
    finally:
        for where in reversed(mounted):
            subprocess.run(["umount", "-l", str(where)], check=False)


def remount_read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)


def sbctune(data_dir: Path, *args: str, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    full_env = dict(os.environ, SBCTUNE_DATA_DIR=str(data_dir), **(env or {}))
    return subprocess.run([sys.executable, "-m", "sbctune", *args], env=full_env, cwd=cwd,
                          capture_output=True, text=True, timeout=180)  # fmt: skip


def test_read_only_history_is_read_not_called_damaged(tmpfs: Callable[[str], Path],
                                                       tmp_path: Path) -> None:  # fmt: skip
    data = tmpfs("8m")
    history, ids = seed_history(data / "history.sqlite3")
    history.close()
    remount_read_only(data)

    listed = sbctune(data, "history")
    assert listed.returncode == 0, listed.stderr
    assert "lbox" in listed.stdout and "damaged" not in listed.stdout + listed.stderr
    compared = sbctune(data, "compare", str(ids[0]), str(ids[1]), "--json")
    assert compared.returncode == 0, compared.stderr
    assert json.loads(compared.stdout)["rows"]
    exported = sbctune(data, "export", str(ids[0]), "-f", "csv", "-o", str(tmp_path / "r.csv"))
    assert exported.returncode == 0, exported.stderr
    assert (tmp_path / "r.csv").read_text().startswith("run_id,")
    advised = sbctune(data, "advise", str(ids[0]), "--json")
    assert advised.returncode == 0, advised.stderr

    with History.open(data / "history.sqlite3") as store:
        assert len(store.devices()) == 1
        with pytest.raises(CannotWrite) as refused:
            store.add_device("pi", 22, "pi")
    message = str(refused.value)
    assert "the file system is read-only" in message and "is not damaged" in message


def test_full_disk_says_full_and_the_run_goes_to_a_file(tmpfs: Callable[[str], Path],
                                                         tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:  # fmt: skip
    data = tmpfs("1m")
    path = data / "history.sqlite3"
    history, _ids = seed_history(path)
    history.close()
    with open(data / "filler", "wb") as fh:  # fill what is left, bounded by the mount
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError:
            pass
    with History.open(path) as store, pytest.raises(CannotWrite, match="the disk is full"):
        store.add_device("pi-" + "x" * 200_000, 22, "pi")

    monkeypatch.chdir(tmp_path)  # the data folder is full: the file goes to the current one
    kept = keep(lambda h: [h.add_device("pi-" + "x" * 200_000, 22, "pi").id or 0],
                {"result": {"tests": [{"mean_mbps": 941.0}]}}, path)  # fmt: skip
    assert kept.run_ids == [] and kept.file is not None and kept.file.parent == tmp_path
    saved = json.loads(kept.file.read_text())
    assert saved["result"]["tests"][0]["mean_mbps"] == 941.0
    assert "the disk is full" in kept.message() and str(kept.file) in kept.message()


# --no-latency: these are about the history, and latency's idle probing adds ~3 s per test.
def _measure(lab: Any, data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return sbctune(data, "measure", f"{lab.user}@{lab.host}", "--accept-new-host-key",
                   "--duration", "2", "--omit", "0", "--trials", "1", "--no-latency", *extra,
                   env={"SBCTUNE_PASSWORD": lab.password})  # fmt: skip


def test_measure_with_a_damaged_history_prints_and_keeps_the_run(
    lab_factory: Any, tmp_path: Path, tmpfs: Callable[[str], Path]
) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "history.sqlite3").write_bytes(b"this is not a database\n" * 100)
    proc = _measure(lab, damaged, "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert len(result["tests"]) == 2 and all(t["mean_mbps"] for t in result["tests"])
    unsaved = Path(result["unsaved_file"])
    assert unsaved.parent == damaged and unsaved.name.startswith(UNSAVED_PREFIX)
    kept = json.loads(unsaved.read_text(encoding="utf-8"))
    assert kept["result"]["tests"] == result["tests"] and kept["device"]["host"] == lab.host
    assert "Nothing is lost: it is saved in" in proc.stderr

    # A read-only data folder (a good history in it): the table, and a file in the cwd.
    data = tmpfs("8m")
    History.open(data / "history.sqlite3").close()
    remount_read_only(data)
    here = tmp_path / "cwd"
    here.mkdir()
    proc = sbctune(data, "measure", f"{lab.user}@{lab.host}", "--accept-new-host-key",
                   "--duration", "2", "--omit", "0", "--trials", "1", "--no-latency", cwd=here,
                   env={"SBCTUNE_PASSWORD": lab.password})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Pi → PC" in proc.stdout  # the table
    assert "read-only" in proc.stderr and "damaged or is not" not in proc.stderr
    assert [p.name.startswith(UNSAVED_PREFIX) for p in here.iterdir()] == [True]


def test_one_unreadable_run_leaves_the_rest_of_the_history_usable(tmp_path: Path) -> None:
    """A run whose stored plan is JSON nested 100 000 deep (json.loads: RecursionError)."""
    history, ids = seed_history(tmp_path / "history.sqlite3")
    deep = "[" * 100_000 + "]" * 100_000
    history._conn.execute("UPDATE runs SET plan_json = ? WHERE id = ?", (deep, ids[0]))
    history.close()

    listed = sbctune(tmp_path, "history")
    assert listed.returncode == 0, listed.stderr
    assert f"run {ids[0]} cannot be read (a stored value nests 100000 levels deep" in listed.stderr
    assert "lbox" in listed.stdout and "unexpected error" not in listed.stderr
    compared = sbctune(tmp_path, "compare", str(ids[1]), str(ids[2]), "--json")
    assert compared.returncode == 0, compared.stderr
    refused = sbctune(tmp_path, "compare", str(ids[0]), str(ids[1]))
    assert refused.returncode not in (0, 70), refused.stderr
    assert f"run {ids[0]} in the history" in refused.stderr
    assert "The rest of the history is fine." in refused.stderr
    assert "unexpected error" not in refused.stderr and "damaged" not in refused.stderr


def test_a_locked_history_is_busy_not_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sbctune.cli.main import main
    from sbctune.history import schema

    path = tmp_path / "history.sqlite3"
    seed_history(path)[0].close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time\n"
         "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)", str(path)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
        monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.5)  # SQLite's retries, shortened
        code = main(["history"])
    finally:
        holder.kill()
        holder.wait(timeout=10)
    err = capsys.readouterr().err
    assert code == 1, err
    assert "is busy: it is locked by another program" in err
    assert f"(pid {holder.pid})" in err and "has it open" in err
    assert "damaged" not in err.replace("not damaged", "")
    assert main(["history"]) == 0  # once the other program let go


@contextlib.contextmanager
def locked_history(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another program holding `path` under `BEGIN EXCLUSIVE` (bounded: it exits in 60 s)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time\n"
         "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)", str(path)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        yield holder
    finally:
        holder.kill()
        holder.wait(timeout=10)


def _says_busy(err: str, holder: subprocess.Popen[str]) -> None:
    assert "is busy: it is locked by another program" in err, err
    assert f"(pid {holder.pid})" in err
    assert "damaged" not in err.replace("not damaged", ""), err
    assert "unexpected error" not in err


def test_compare_tune_plan_and_measure_say_busy_and_measure_keeps_its_json(
    module_lab: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from sbctune.cli.main import main
    from sbctune.history import schema

    lab = module_lab
    path = tmp_path / "history.sqlite3"
    _history, ids = seed_history(path)
    _history.close()
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SBCTUNE_PASSWORD", lab.password)
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.5)  # SQLite's retries, shortened
    pi = f"{lab.user}@{lab.host}"
    with locked_history(path) as holder:
        assert main(["compare", str(ids[0]), str(ids[1])]) == 1
        _says_busy(capsys.readouterr().err, holder)

        assert main(["tune", "plan", pi, "--accept-new-host-key"]) == 1
        _says_busy(capsys.readouterr().err, holder)

        code = main(["measure", pi, "--accept-new-host-key", "--duration", "2", "--omit", "0",
                     "--trials", "1", "--no-latency", "--json"])  # fmt: skip
        out, err = capsys.readouterr()
    assert code == 0, err
    _says_busy(err, holder)
    result = json.loads(out)
    assert len(result["tests"]) == 2 and all(t["mean_mbps"] for t in result["tests"])
    unsaved = Path(result["unsaved_file"])
    assert unsaved.name.startswith(UNSAVED_PREFIX)
    assert json.loads(unsaved.read_text(encoding="utf-8"))["result"]["tests"] == result["tests"]
    assert "Nothing is lost: it is saved in" in err
