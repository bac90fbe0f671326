"""sbctune.safefiles, unit by unit: only regular files inside the folder, which bytes of an
oversized member are kept (head, or a log's tail), and a zip's member count, unpacked size,
bomb ratio, links and folders. Fast on purpose: scripts/mutation.py runs these once per
mutant of the module (limits are shrunk with monkeypatch, never by writing big files)."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

import pytest

from sbctune import safefiles
from sbctune.limits import Capped, LimitError
from sbctune.safefiles import (
    UnsafeMember,
    check_zip,
    read_member,
    read_zip_member,
    regular_file,
)

DATA = bytes(i % 251 for i in range(1000))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "bundle"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "out.txt").write_bytes(DATA)
    (tmp_path / "secret").write_text("not yours", encoding="utf-8")
    return root


def test_a_member_is_read_whole_under_or_at_the_limit(folder: Path) -> None:
    assert read_member(folder, "sub/out.txt", "lsusb") == Capped(DATA, False, 1000)
    assert read_member(folder, "sub/out.txt", "lsusb", 1000) == Capped(DATA, False, 1000)


def test_an_oversized_member_keeps_its_head_or_a_logs_tail(folder: Path) -> None:
    assert read_member(folder, "sub/out.txt", "lsusb", 10) == Capped(DATA[:10], True, 1000)
    assert read_member(folder, "sub/out.txt", "dmesg", 10) == Capped(DATA[-10:], True, 1000)
    assert read_member(folder, "sub/out.txt", "dmesg", 0) == Capped(b"", True, 1000)


def test_big_reads_are_made_in_chunks(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safefiles, "_CHUNK", 7)
    assert read_member(folder, "sub/out.txt", "lsusb") == Capped(DATA, False, 1000)


def test_missing_members_are_none(folder: Path) -> None:
    assert read_member(folder, "sub/none.txt", "x") is None
    assert read_member(folder, "none/out.txt", "x") is None
    assert regular_file(folder, "sub/none.txt") is None


@pytest.mark.parametrize("rel", ["/etc/passwd", "../secret", "sub/../../secret", "sub\\out.txt",
                                 ""])  # fmt: skip
def test_a_path_leaving_the_folder_is_refused(folder: Path, rel: str) -> None:
    with pytest.raises(UnsafeMember, match="points outside"):
        read_member(folder, rel, "x")


@pytest.mark.posix_only("makes a symlink (Windows needs a privilege for them)")
def test_a_link_anywhere_on_the_path_is_refused(folder: Path, tmp_path: Path) -> None:
    (folder / "last").symlink_to(tmp_path / "secret")
    (folder / "middle").symlink_to(folder / "sub")
    for rel in ("last", "middle/out.txt"):
        with pytest.raises(UnsafeMember, match="is a symbolic link") as refused:
            read_member(folder, rel, "x")
        assert "replace the link with a copy" in (refused.value.hint or "")
        with pytest.raises(UnsafeMember, match="is a symbolic link"):
            regular_file(folder, rel)


@pytest.mark.posix_only("makes a FIFO (os.mkfifo)")
def test_a_folder_or_a_fifo_is_not_a_regular_file(folder: Path) -> None:
    os.mkfifo(folder / "fifo")
    for rel in ("sub", "fifo"):
        with pytest.raises(UnsafeMember, match="is not a regular file"):
            read_member(folder, rel, "x")
        with pytest.raises(UnsafeMember, match="is not a regular file"):
            regular_file(folder, rel)
    assert regular_file(folder, "sub/out.txt") == folder / "sub" / "out.txt"


@pytest.mark.posix_only("POSIX permissions (chmod 000 on a folder)")
def test_an_unreadable_part_of_the_path_is_refused_with_its_reason(folder: Path) -> None:
    with pytest.raises(UnsafeMember, match="cannot be read"):
        read_member(folder, "sub/out.txt/deeper", "x")  # ENOTDIR


def make_zip(path: Path, members: dict[str, bytes], link: str | None = None) -> zipfile.ZipFile:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        archive.writestr(zipfile.ZipInfo("folder/"), b"")
        if link:
            info = zipfile.ZipInfo(link)
            info.create_system = 3
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return zipfile.ZipFile(path)


def test_zip_members_head_tail_and_missing(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "b.zip", {"out.txt": DATA})
    assert read_zip_member(archive, "out.txt", "lsusb") == Capped(DATA, False, 1000)
    assert read_zip_member(archive, "out.txt", "lsusb", 1000) == Capped(DATA, False, 1000)
    assert read_zip_member(archive, "out.txt", "lsusb", 10) == Capped(DATA[:10], True, 1000)
    assert read_zip_member(archive, "out.txt", "dmesg", 10) == Capped(DATA[-10:], True, 1000)
    assert read_zip_member(archive, "none.txt", "x") is None


def test_a_zip_tail_is_read_in_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safefiles, "_CHUNK", 7)
    archive = make_zip(tmp_path / "b.zip", {"out.txt": DATA})
    assert read_zip_member(archive, "out.txt", "dmesg", 10) == Capped(DATA[-10:], True, 1000)


def test_a_zip_link_or_folder_is_refused(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "b.zip", {"out.txt": DATA}, link="evil")
    with pytest.raises(UnsafeMember, match=r"evil in .* is a symbolic link"):
        read_zip_member(archive, "evil", "x")
    with pytest.raises(UnsafeMember, match="is a folder, not a file"):
        read_zip_member(archive, "folder/", "x")


def test_zip_limits_at_their_edges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = make_zip(tmp_path / "b.zip", {"a": b"x" * 600, "b": b"y" * 400})  # + a folder
    monkeypatch.setattr(safefiles, "MAX_ZIP_MEMBERS", 3)
    monkeypatch.setattr(safefiles, "MAX_ZIP_UNCOMPRESSED", 1000)
    check_zip(archive, tmp_path / "b.zip")  # exactly at both limits: read
    monkeypatch.setattr(safefiles, "MAX_ZIP_MEMBERS", 2)
    with pytest.raises(LimitError, match="holds 3 files, more than the 2 sbctune reads"):
        check_zip(archive, tmp_path / "b.zip")
    monkeypatch.setattr(safefiles, "MAX_ZIP_MEMBERS", 3)
    monkeypatch.setattr(safefiles, "MAX_ZIP_UNCOMPRESSED", 999)
    with pytest.raises(LimitError, match="unpacks to 1000 bytes, more than the 999 bytes"):
        check_zip(archive, tmp_path / "b.zip")


def test_a_bomb_ratio_is_refused_only_above_the_floor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = make_zip(tmp_path / "b.zip", {"bomb": b"\0" * 100_000, "text": DATA})
    size = archive.getinfo("bomb").compress_size
    monkeypatch.setattr(safefiles, "ZIP_RATIO_FLOOR", 100_000)  # at the floor: not judged
    check_zip(archive, tmp_path / "b.zip")
    monkeypatch.setattr(safefiles, "ZIP_RATIO_FLOOR", 99_999)
    with pytest.raises(LimitError, match=r"bomb unpacks from .* a ratio only a zip bomb"):
        check_zip(archive, tmp_path / "b.zip")
    ratio = -(-100_000 // size)  # the smallest whole ratio the member stays within
    monkeypatch.setattr(safefiles, "MAX_ZIP_RATIO", ratio)
    check_zip(archive, tmp_path / "b.zip")
    monkeypatch.setattr(safefiles, "MAX_ZIP_RATIO", ratio - 1)
    with pytest.raises(LimitError):
        check_zip(archive, tmp_path / "b.zip")


def test_a_member_exactly_at_a_small_limit_is_whole(tmp_path: Path, folder: Path) -> None:
    (folder / "ten.txt").write_bytes(DATA[:10])
    assert read_member(folder, "ten.txt", "x", 10) == Capped(DATA[:10], False, 10)
    archive = make_zip(tmp_path / "b.zip", {"ten.txt": DATA[:10]})
    assert read_zip_member(archive, "ten.txt", "x", 10) == Capped(DATA[:10], False, 10)
    assert read_zip_member(archive, "ten.txt", "x", 9) == Capped(DATA[:9], True, 10)


def test_link_bits_count_only_in_a_zip_made_on_unix(tmp_path: Path) -> None:
    path = tmp_path / "dos.zip"
    with zipfile.ZipFile(path, "w") as archive:
        info = zipfile.ZipInfo("looks-like-a-link")
        info.create_system = 0  # MS-DOS: the high bits are no Unix mode; zipfile makes a file
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "text")
    with zipfile.ZipFile(path) as archive:
        assert read_zip_member(archive, "looks-like-a-link", "x") == Capped(b"text", False, 4)
