"""The FUSE side of the lab's knob file system: mfusepy operations over a ``knobs_model.Tree``.

Imported only by the knob server process (``knobs_fs.serve``): mfusepy loads libfuse when
imported, which only that process (Linux, root) has.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import time
from typing import Any

import mfusepy

from sbctune.lab.knobs_model import Node, Tree

log = logging.getLogger("sbctune.lab.knobs_fs")


def _oserr(exc: OSError) -> Exception:
    error: Exception = mfusepy.FuseOSError(exc.errno or errno.EIO)
    return error


class KnobsOps(mfusepy.Operations):  # type: ignore[misc]
    """The FUSE operations serving one knob tree."""

    use_ns = True

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.started = time.time_ns()

    def _node(self, path: str) -> Node:
        try:
            return self.tree.lookup(path)
        except OSError as exc:
            raise _oserr(exc) from None

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        node = self._node(path)
        kind = {"dir": stat.S_IFDIR, "file": stat.S_IFREG, "link": stat.S_IFLNK}[node.kind]
        size = 4096 if node.kind == "file" else len(node.target)
        return {
            "st_mode": kind | node.mode,
            "st_nlink": 2 if node.kind == "dir" else 1,
            "st_size": size,
            "st_uid": 0,
            "st_gid": 0,
            "st_atime": self.started,
            "st_mtime": self.started,
            "st_ctime": self.started,
        }

    def readdir(self, path: str, fh: int) -> list[str]:
        node = self._node(path)
        if node.kind != "dir":
            raise mfusepy.FuseOSError(errno.ENOTDIR)
        return [".", "..", *sorted(node.children)]

    def readlink(self, path: str) -> str:
        node = self._node(path)
        if node.kind != "link":
            raise mfusepy.FuseOSError(errno.EINVAL)
        return node.target

    def open(self, path: str, flags: int) -> int:
        node = self._node(path)
        if node.kind == "dir":
            raise mfusepy.FuseOSError(errno.EISDIR)
        wants_write = flags & (os.O_WRONLY | os.O_RDWR)
        if wants_write and node.write is None:
            raise mfusepy.FuseOSError(errno.EACCES)
        return 0

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        node = self._node(path)
        if node.read is None:
            raise mfusepy.FuseOSError(errno.EIO)
        try:
            data = node.read().encode()
        except OSError as exc:
            raise _oserr(exc) from None
        return data[offset : offset + size]

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        node = self._node(path)
        if node.write is None:
            raise mfusepy.FuseOSError(errno.EACCES)
        try:
            node.write(data.decode("utf-8", errors="replace"))
        except OSError as exc:
            log.info("write %r to %s refused: %s", data, path, exc)
            raise _oserr(exc) from None
        if self.tree.on_change is not None:
            try:
                self.tree.on_change()
            except OSError as exc:  # the shaper misses one update; the knob itself is set
                log.warning("cannot save the knob state: %s", exc)
        return len(data)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        node = self._node(path)
        if node.write is None:
            raise mfusepy.FuseOSError(errno.EACCES)
        return 0

    def chmod(self, path: str, mode: int) -> int:
        raise mfusepy.FuseOSError(errno.EPERM)

    def chown(self, path: str, uid: int, gid: int) -> int:
        raise mfusepy.FuseOSError(errno.EPERM)

    def utimens(self, path: str, times: Any = None) -> int:
        return 0


def mount(tree: Tree, mountpoint: str) -> None:
    """Serve ``tree`` at ``mountpoint`` until unmounted (in the foreground, one thread)."""
    mfusepy.FUSE(
        KnobsOps(tree),
        mountpoint,
        foreground=True,
        nothreads=True,
        allow_other=True,
        default_permissions=True,
        direct_io=True,
        attr_timeout=0,
        entry_timeout=0,
        fsname="sbctune-lab-knobs",
    )
