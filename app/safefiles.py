"""Reading the members of an untrusted folder or zip (a bundle, a lab profile): only regular
files inside it, each under the size limit, a zip checked for bombs before anything inflates.

A symlink in a bundle folder would make sbctune quote any file of this PC as evidence (and a
lab profile's copy it into a lab as root), so a link, a path that leaves the folder, a FIFO or a
device is refused with a message that names it.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.limits import (
    MAX_OUTPUT_BYTES,
    MAX_ZIP_MEMBERS,
    MAX_ZIP_RATIO,
    MAX_ZIP_UNCOMPRESSED,
    ZIP_RATIO_FLOOR,
    Capped,
    LimitError,
    TailBuffer,
    keeps_tail,
    size_text,
)

if TYPE_CHECKING:  # a zip's members are checked here; the caller that opens a zip imports it
    import zipfile

_CHUNK = 1024 * 1024
# Opening a FIFO would block and following a final symlink would leave the folder: neither
# flag exists on Windows, where the lstat checks below still hold.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS |= getattr(os, "O_BINARY", 0)


class UnsafeMember(UserError):
    """A member that is a link, leaves its folder, or is not a regular file."""


def _check_inside(root: Path, rel: str) -> Path:
    """``root/rel`` after checking that no part of it is a symlink and it stays in ``root``."""
    parts = PurePosixPath(rel).parts
    if not parts or rel.startswith("/") or "\\" in rel or ".." in parts:
        raise UnsafeMember(f"{rel!r} points outside {root}", "a member must be a relative path")
    here = root
    for part in parts:
        here = here / part
        try:
            info = os.lstat(here)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise UnsafeMember(f"{here} cannot be read ({exc.strerror})") from exc
        if stat.S_ISLNK(info.st_mode):
            raise UnsafeMember(
                f"{here} is a symbolic link; sbctune reads only regular files inside {root}",
                "replace the link with a copy of the file you mean",
            )
    if not here.resolve().is_relative_to(root.resolve()):
        raise UnsafeMember(f"{here} resolves outside {root}")
    return here


def _read_fd(fd: int, name: str, size: int, limit: int) -> Capped:
    if size <= limit:
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        data = b"".join(chunks)
        return Capped(data[:limit], len(data) > limit, max(size, len(data)))
    if keeps_tail(name):
        os.lseek(fd, size - limit, os.SEEK_SET)
    data = os.read(fd, limit) if limit else b""
    while len(data) < limit:
        more = os.read(fd, limit - len(data))
        if not more:
            break
        data += more
    return Capped(data, True, size)


def read_member(root: Path, rel: str, name: str, limit: int = MAX_OUTPUT_BYTES) -> Capped | None:
    """The member ``rel`` of folder ``root`` (None when missing), as a regular file only.

    ``name`` is what the member holds (e.g. ``dmesg``): a log keeps its last part when cut.
    Raises UnsafeMember for a link, a path outside ``root`` or anything but a regular file.
    """
    try:
        path = _check_inside(root, rel)
    except FileNotFoundError:
        return None
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:  # ELOOP: it became a link after the check
        raise UnsafeMember(f"{path} cannot be read safely ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeMember(f"{path} is not a regular file; sbctune reads only regular files")
        return _read_fd(fd, name, info.st_size, limit)
    finally:
        os.close(fd)


def check_zip(archive: zipfile.ZipFile, where: Path) -> None:
    """Refuse a zip that declares too many members, too much data or a bomb's ratio."""
    infos = archive.infolist()
    if len(infos) > MAX_ZIP_MEMBERS:
        raise LimitError(
            f"{where} holds {len(infos)} files, more than the {MAX_ZIP_MEMBERS} sbctune reads",
            "a bundle holds a few dozen: this zip was not written by sbctune",
        )
    total = sum(info.file_size for info in infos)
    if total > MAX_ZIP_UNCOMPRESSED:
        raise LimitError(
            f"{where} unpacks to {size_text(total)}, more than the"
            f" {size_text(MAX_ZIP_UNCOMPRESSED)} sbctune reads from a bundle",
            "a bundle is usually under 1 MB unpacked: check that this is the right file",
        )
    for info in infos:
        if info.file_size > ZIP_RATIO_FLOOR and (
            info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1)
        ):
            raise LimitError(
                f"{where}: {info.filename} unpacks from {size_text(info.compress_size)} to"
                f" {size_text(info.file_size)}, a ratio only a zip bomb reaches",
                "this zip was not written by sbctune; it is not read",
            )


def _zip_is_link(info: zipfile.ZipInfo) -> bool:
    return info.create_system == 3 and stat.S_ISLNK(info.external_attr >> 16)


def read_zip_member(
    archive: zipfile.ZipFile, member: str, name: str, limit: int = MAX_OUTPUT_BYTES
) -> Capped | None:
    """A zip member under ``limit`` (None when missing); a stored symlink is refused."""
    try:
        info = archive.getinfo(member)
    except KeyError:
        return None
    if _zip_is_link(info):
        raise UnsafeMember(
            f"{member} in {archive.filename} is a symbolic link; sbctune reads only regular"
            " files of a bundle",
            "replace the link with a copy of the file you mean",
        )
    if info.is_dir():
        raise UnsafeMember(f"{member} in {archive.filename} is a folder, not a file")
    with archive.open(info) as fh:
        if info.file_size <= limit:
            data = fh.read(limit + 1)
            return Capped(data[:limit], len(data) > limit, info.file_size)
        if not keeps_tail(name):
            return Capped(fh.read(limit), True, info.file_size)
        tail = TailBuffer(limit)
        while chunk := fh.read(_CHUNK):
            tail.add(chunk)
        return tail.result()


def regular_file(root: Path, rel: str) -> Path | None:
    """``root/rel`` if it is a regular file inside ``root`` reached through no symlink; None if
    it does not exist. Raises UnsafeMember for a link, a path leaving ``root``, or a non-file."""
    try:
        path = _check_inside(root, rel)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise UnsafeMember(f"{path} is not a regular file; sbctune reads only regular files")
    return path


# --------------------------------------------------------------------------- writing


class OutputExists(UserError):
    """The output is there already: replaced only with the user's consent."""

    def __init__(self, path: Path, option: str = "-o") -> None:
        super().__init__(
            f"{path} already exists.",
            f"Add --force to replace it, or choose another {option} path.",
        )
        self.path = path


def _empty_folder(path: Path) -> bool:
    return path.is_dir() and not any(path.iterdir())


def check_output(
    target: Path, *, overwrite: bool, folder: bool = False, option: str = "-o"
) -> None:
    """Refuse, before any work, an output path sbctune would write through or replace unasked:
    a link (dangling or not), a missing folder, a folder where a file goes, an existing output
    without ``overwrite``. ``folder``: the output is a folder (an empty one may be replaced).
    The private folder the output will be written in, and the output's name in it, are tried
    too: a name too long or a folder that takes no files fails now, not after the work."""
    try:
        _check_output(target, overwrite=overwrite, folder=folder, option=option)
        private = tempfile.mkdtemp(prefix=".sbctune-output-", dir=target.parent)
        try:
            Path(private, target.name).touch()
        finally:
            shutil.rmtree(private, ignore_errors=True)
    except OSError as exc:  # a name too long, a read-only place, a path the OS refuses
        raise _cannot_write(target, exc, option) from None


NAME_MAX = 255  # the longest name ext4 and NTFS hold (in bytes and UTF-16 units)


def name_too_long(path: Path, exc: OSError) -> bool:
    """The OS refused ``path`` for a name's length: Linux says ENAMETOOLONG; Windows says
    ERROR_FILENAME_EXCED_RANGE (206) or only that the path was not found."""
    return (
        exc.errno == errno.ENAMETOOLONG
        or getattr(exc, "winerror", None) == 206
        or any(len(part) > NAME_MAX for part in path.parts)
    )


def _cannot_write(target: Path, exc: OSError, option: str) -> UserError:
    if name_too_long(target, exc):
        return UserError(
            f"Cannot write {target}: File name too long.", f"Choose a shorter name with {option}."
        )
    reason = "that folder cannot hold files" if isinstance(exc, FileNotFoundError) else ""
    hint = f"Choose a file in a folder you can write to (e.g. your home folder) with {option}."
    return UserError(f"Cannot write {target}: {reason or exc.strerror or exc}.", hint)


def file_in_the_way(path: Path) -> Path | None:
    """The nearest existing ancestor of ``path`` when it is a file, not a folder (each OS
    words that error its own way: EEXIST, ENOTDIR, ENOENT)."""
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _check_output(target: Path, *, overwrite: bool, folder: bool, option: str) -> None:
    parent = target.parent
    in_the_way = file_in_the_way(target)
    if in_the_way is not None:
        raise UserError(
            f"Cannot write {target}: {in_the_way} is a file, not a folder.",
            f"Choose another {option} path.",
        )
    if not parent.is_dir():
        raise UserError(
            f"The folder {parent} does not exist.", f"Create it, or choose another {option} path."
        )
    if target.is_symlink():
        raise UserError(
            f"{target} is a symbolic link: sbctune does not write through links.",
            "Remove the link, or choose another file name.",
        )
    # A rename over /dev/null (run as root) would replace the device node itself.
    if target.exists() and not (target.is_file() or target.is_dir()):
        raise UserError(
            f"{target} is not a regular file (a device, a pipe or a socket): sbctune replaces"
            " only files it could have written.",
            f"Choose a file name with {option}.",
        )
    if folder and _empty_folder(target):
        return
    if folder and target.exists() and not target.is_dir():
        raise UserError(
            f"{target} exists and is not a folder.",
            f"Give a new folder name or .zip with {option}.",
        )
    if target.is_dir():
        what = "a folder that is not empty" if folder else "a folder"
        raise UserError(f"{target} is {what}.", f"Give a new name with {option}.")
    if target.exists() and not overwrite:
        raise OutputExists(target, option)


def _replace(written: Path, target: Path) -> None:
    try:
        os.replace(written, target)
    except OSError:
        # Windows renames a folder over no folder, not even an empty one (POSIX does):
        # the empty folder the user named gives way, then the rename is tried once more.
        if not (written.is_dir() and _empty_folder(target)):
            raise
        target.rmdir()
        os.replace(written, target)


def write_output(
    target: str | Path,
    write: Callable[[Path], Path],
    *,
    overwrite: bool,
    folder: bool = False,
    option: str = "-o",
) -> Path:
    """Run ``write(path)`` for a path in a private folder next to ``target``, then rename the
    result onto ``target``: a rename replaces a name, it never follows a link, and a reader
    never sees half a file. Checked as `check_output` says; returns ``target``."""
    target = Path(target)
    check_output(target, overwrite=overwrite, folder=folder, option=option)
    try:
        private = Path(tempfile.mkdtemp(prefix=".sbctune-output-", dir=target.parent))
        try:
            written = write(private / target.name)
            _replace(written, target)
        finally:
            shutil.rmtree(private, ignore_errors=True)
        return target
    except OSError as exc:  # read-only place, full disk, a path the OS refuses
        raise _cannot_write(target, exc, option) from None
