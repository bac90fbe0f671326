"""Secrets stay out of reprs and non-OS keyrings; files sbctune writes are never world-writable."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from sbctune import paths
from sbctune.remote import batch
from sbctune.ui import secrets
from sbctune.ui.controllers.connection import ConnectRequest
from tests.memory_keyring import MemoryKeyring

HOSTILE = "hunter2'; rm -rf / #"


class _FileKeyring(MemoryKeyring):
    """Stands in for keyrings.alt's plaintext file: a backend that is not the OS keyring."""


@pytest.fixture
def file_keyring() -> Iterator[_FileKeyring]:
    before = keyring.get_keyring()
    fake = _FileKeyring()
    keyring.set_keyring(fake)
    try:
        yield fake
    finally:
        keyring.set_keyring(before)


def test_the_connect_form_never_shows_its_password() -> None:
    request = ConnectRequest("pi.local", password=HOSTILE, remember=True)
    assert HOSTILE not in repr(request) and HOSTILE not in str(request)


async def test_remember_refuses_a_keyring_that_is_not_the_os_one(
    file_keyring: _FileKeyring,
) -> None:
    problem = await secrets.save_password("pi", "pi.local", 22, HOSTILE)
    assert problem == secrets.NO_OS_KEYRING
    assert file_keyring.saved == {}


class _Chain:
    """keyring's ChainerBackend as is_os_keyring sees it: the backends it tries in turn."""

    def __init__(self, *backends: object) -> None:
        self.backends = list(backends)


def test_os_keyrings_are_recognised() -> None:
    from keyring.backends import fail

    class SecretServiceLike(_FileKeyring):
        pass

    SecretServiceLike.__module__ = "keyring.backends.SecretService"
    assert secrets.is_os_keyring(SecretServiceLike())
    assert not secrets.is_os_keyring(_FileKeyring())
    assert not secrets.is_os_keyring(fail.Keyring())
    # A chain saves in the first backend that accepts: every one must be an OS keyring.
    assert secrets.is_os_keyring(_Chain(SecretServiceLike()))
    assert not secrets.is_os_keyring(_Chain(SecretServiceLike(), _FileKeyring()))
    assert not secrets.is_os_keyring(_Chain())


@pytest.mark.posix_only("POSIX file modes (umask, 0o644/0o700)")
def test_batch_writes_files_without_group_or_world_write_under_any_umask(
    tmp_path: Path,
) -> None:
    target = tmp_path / "session.json"
    folder = tmp_path / "made"
    steps = [
        batch.command("sh", "-c", 'printf "%s" "$1" >"$2"', "sh", HOSTILE, str(target)),
        batch.command("mkdir", "-p", "--", str(folder)),
    ]
    nonce = batch.new_nonce()
    script = batch.build_script(steps, nonce)
    # The Pi's login shell may come with umask 000: run the batch under it.
    out = subprocess.run(
        ["sh", "-c", "umask 000; exec sh -s"], input=script.encode(), capture_output=True
    ).stdout
    results = batch.split_output(steps, nonce, out)
    assert [r.exit_code for r in results] == [0, 0]
    assert (
        target.read_text(encoding="utf-8") == HOSTILE
    )  # the hostile value arrived as data, unchanged
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755


@pytest.mark.posix_only("POSIX file modes (umask, 0o644/0o700)")
def test_the_data_folder_is_private_when_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "new" / "sbctune"))
    old = os.umask(0o022)
    try:
        made = paths.data_dir()
    finally:
        os.umask(old)
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
