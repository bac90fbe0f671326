"""A lab's host key is new on every `up`: sbctune trusts it, so reusing an address is no stop.

For a real Pi a changed key is a hard stop (tests/integration/test_connect*.py); for a lab the
same program just made, that stop would only be in the way.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.lab_support import unique_lab_name

pytestmark = pytest.mark.lab
pytest_plugins = ["tests.lab_support"]


def _connect(lab: LabInfo, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """`sbctune connect` with no --accept-new-host-key and no TTY: an unknown key fails."""
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(data_dir))
    return subprocess.run(
        [sys.executable, "-m", "sbctune", "connect", f"{lab.user}@{lab.host}"],
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_a_new_lab_on_a_reused_address_is_trusted(
    lab_factory: Callable[..., LabInfo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(data))
    name = unique_lab_name()
    first = lab_factory("pi1b-smsc95xx", name=name)
    proc = _connect(first, data)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    key_line = (data / "known_hosts").read_text()
    assert first.host in key_line

    from sbctune import lab as lab_api

    lab_api.down(name)
    second = lab_factory("pi1b-smsc95xx", name=name)
    if second.host != first.host:
        # Another test process's lab took the freed block between down and up (labs take the
        # lowest free one): the old key is stored for the address this lab got, and lab up's
        # own trust step runs after it, as it would had the stale key been there before the up
        # (writing it after the up, as before, made connect stop with "CHANGED").
        from sbctune.lab import manager, state

        key_line = "".join(
            f"{second.host} {ln.split(maxsplit=1)[1]}" if ln.split()[:1] == [first.host] else ln
            for ln in key_line.splitlines(keepends=True)
        )
        (data / "known_hosts").write_text(key_line)
        key = state.lab_dir(name) / "ssh" / "ssh_host_ed25519_key"
        manager._trust_host_key(second, key)
    assert second.host in key_line  # an old lab's key for this address, and a new host key
    proc = _connect(second, data)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "changed" not in (proc.stdout + proc.stderr).lower()
    lines = [ln for ln in (data / "known_hosts").read_text().splitlines() if ln.strip()]
    assert len([ln for ln in lines if ln.split()[0] == second.host]) == 1  # replaced, not added
    assert (data / "known_hosts").read_text() != key_line


def test_the_users_own_known_hosts_is_never_written(
    lab_factory: Callable[..., LabInfo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    own = home / ".ssh" / "known_hosts"
    own.write_text("")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    lab_factory("pi1b-smsc95xx")
    assert own.read_text() == ""
