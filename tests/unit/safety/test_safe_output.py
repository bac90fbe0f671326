"""sbctune.safefiles' writing half, unit by unit: an output is renamed into place from a
private folder next to it, never written through a link, an existing output replaced only
with consent, a bundle folder only where none or an empty one is; a failed write leaves
nothing behind and the user's file as it was. Fast: the mutation run uses these."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.errors import UserError
from sbctune.safefiles import OutputExists, check_output, write_output


def _file(text: str) -> Callable[[Path], Path]:
    def write(private: Path) -> Path:
        private.write_text(text, encoding="utf-8")
        return private

    return write


def _folder(private: Path) -> Path:
    private.mkdir()
    (private / "manifest.json").write_text("{}", encoding="utf-8")
    return private


def _left(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir())


def test_a_new_file_is_written_and_nothing_else_is_left(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    assert write_output(out, _file("new"), overwrite=False) == out
    assert out.read_text(encoding="utf-8") == "new" and _left(tmp_path) == ["r.txt"]


def test_an_existing_file_needs_consent(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    out.write_text("mine", encoding="utf-8")
    with pytest.raises(OutputExists) as refused:
        write_output(out, _file("new"), overwrite=False)
    assert refused.value.path == out and "--force" in (refused.value.hint or "")
    assert out.read_text(encoding="utf-8") == "mine"
    write_output(out, _file("new"), overwrite=True)
    assert out.read_text(encoding="utf-8") == "new" and _left(tmp_path) == ["r.txt"]


@pytest.mark.parametrize("dangling", [False, True])
@pytest.mark.posix_only("makes a symlink (Windows needs a privilege for them)")
def test_a_link_is_refused_even_with_consent(tmp_path: Path, dangling: bool) -> None:
    victim = tmp_path / "victim"
    if not dangling:
        victim.write_text("keep", encoding="utf-8")
    link = tmp_path / "r.txt"
    link.symlink_to(victim)
    for folder in (False, True):
        with pytest.raises(UserError, match="is a symbolic link"):
            write_output(link, _file("new"), overwrite=True, folder=folder)
    assert link.is_symlink()
    assert not victim.exists() if dangling else victim.read_text(encoding="utf-8") == "keep"


def test_a_missing_parent_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist") as refused:
        check_output(tmp_path / "no" / "r.txt", overwrite=True, option="--report")
    assert "--report" in (refused.value.hint or "")


def test_a_bundle_folder_goes_where_none_or_an_empty_one_is(tmp_path: Path) -> None:
    new = tmp_path / "new"
    write_output(new, _folder, overwrite=False, folder=True)
    assert (new / "manifest.json").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    write_output(empty, _folder, overwrite=False, folder=True)
    assert (empty / "manifest.json").is_file()
    with pytest.raises(UserError, match="is a folder that is not empty"):
        check_output(empty, overwrite=True, folder=True)
    (tmp_path / "a-file").write_text("mine", encoding="utf-8")
    with pytest.raises(UserError, match="exists and is not a folder"):
        check_output(tmp_path / "a-file", overwrite=True, folder=True)
    with pytest.raises(UserError, match=r"empty is a folder\. \(Give a new name"):
        check_output(empty, overwrite=True, folder=False)
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "mine"


def test_a_failed_write_leaves_the_users_file_and_no_private_folder(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    out.write_text("mine", encoding="utf-8")

    def fails(private: Path) -> Path:
        private.write_text("half", encoding="utf-8")
        raise OSError(28, os.strerror(28))

    with pytest.raises(UserError, match=re.escape(f"Cannot write {out}: No space left on device")):
        write_output(out, fails, overwrite=True)
    assert out.read_text(encoding="utf-8") == "mine" and _left(tmp_path) == ["r.txt"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_pipe_or_device_is_never_replaced(tmp_path: Path) -> None:
    """`-o /dev/null --force` as root would otherwise rename a file over the device node."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for folder in (False, True):
        with pytest.raises(UserError, match="is not a regular file"):
            write_output(pipe, _file("new"), overwrite=True, folder=folder)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode) and _left(tmp_path) == ["pipe"]
