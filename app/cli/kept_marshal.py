"""Compiled code kept between runs in the user's private cache folder (marshal, the format of
__pycache__ itself): dataclass_code's methods and regex_code's patterns. A file is read only
when it is the user's own and no one else can write it; a torn or foreign one reads as None.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any


def kept_path(name: str, form: int) -> Path:
    """The file for `name` made by this interpreter (its version, -O level, marshal's)."""
    from sbctune.paths import cache_dir

    tag = sys.implementation.cache_tag or "unknown"  # "cpython-311": its bytecode's version
    level = sys.flags.optimize  # -O, -OO: compiled code differs (as .opt-1.pyc does)
    return cache_dir() / f"{name}-{tag}-{sys.hexversion:x}-o{level}-m{marshal.version}-{form}"


def read_kept(path: Path) -> object:
    """What the file holds; None when there is none, it is torn, or it is not the user's."""
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        info = path.stat()
        getuid = getattr(os, "getuid", None)  # posix-only: Windows has no uids
        if getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o022):
            return None
        # marshal reads only what this process's own code wrote in the user's private folder
        return marshal.loads(path.read_bytes())  # noqa: S302
    return None


def newest_first(used: dict[Any, Any], known: dict[Any, Any], limit: int) -> dict[Any, Any]:
    """What to keep: this run's entries first, then older ones, at most `limit` in all."""
    kept = dict(list(used.items())[:limit])
    for key, value in known.items():
        if len(kept) >= limit:
            break
        kept.setdefault(key, value)
    return kept


def write_kept(path: Path, value: dict[Any, Any], prefix: str) -> None:
    """`value` written whole (a reader never sees half a file); a failure leaves it unwritten."""
    import tempfile  # only when something new was compiled (not at every start)

    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(marshal.dumps(value))
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
