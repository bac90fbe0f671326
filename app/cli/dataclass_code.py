"""Dataclasses made without compiling their methods' source at every start of the program.

`@dataclass` writes the source of each class's __init__, __repr__, __eq__ ... and compiles it
with exec() (CPython 3.11 dataclasses._create_fn): ~450 small compiles for the ~100 dataclasses
that `sbctune inspect BUNDLE` imports, ~6 % of its instructions (callgrind), at every start.
Python keeps modules' bytecode in __pycache__, but not this. So, in the process's own command
only (as exit_gc does), the compiled code of each such source is kept in the user's cache
folder (marshal, the format of __pycache__ itself), keyed by the very source text and by the
interpreter's version: the same text compiled by the same interpreter is the same code, so the
classes are the same. dataclasses looks up the name `exec` in its own module first; the
stand-in set there for the command's duration compiles a source it has not seen (as exec()
would, without this module's `from __future__` flags) and runs the code. Anything else (no
file, another version's, torn, not the user's own) compiles as before; a newer Python whose
dataclasses no longer call exec() there simply never calls the stand-in.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_FORMAT = 1
# sources kept (`inspect` makes ~450): when a run adds some, its own come first and older
# ones (another command's, an older release's) fill up to this, so the file stays small
_LIMIT = 1_500


def _path() -> Path:
    from sbctune.paths import cache_dir

    tag = sys.implementation.cache_tag or "unknown"  # "cpython-311": its bytecode's version
    level = sys.flags.optimize  # -O, -OO: compiled code differs (as .opt-1.pyc does)
    return (
        cache_dir()
        / f"dataclass-code-{tag}-{sys.hexversion:x}-o{level}-m{marshal.version}-{_FORMAT}"
    )


def _read(path: Path) -> dict[str, types.CodeType]:
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        info = path.stat()
        getuid = getattr(os, "getuid", None)  # posix-only: Windows has no uids
        if getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o022):
            return {}
        # marshal reads only what this process's own code wrote in the user's private folder
        value = marshal.loads(path.read_bytes())  # noqa: S302
        if isinstance(value, dict) and all(
            type(k) is str and type(v) is types.CodeType for k, v in value.items()
        ):
            return value
    return {}


def _write(path: Path, known: dict[str, types.CodeType]) -> None:
    import tempfile  # only when a new source was compiled (not at every start)

    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".dataclass-code-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(marshal.dumps(known))
            os.replace(tmp, path)  # a reader never sees half a file
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@contextlib.contextmanager
def dataclass_code_kept(own_process: bool) -> Iterator[None]:
    """For the block, dataclasses' exec() of a method's source runs its kept code."""
    if not own_process or "exec" in vars(dataclasses):
        yield
        return
    path = _path()
    known = _read(path)
    used: dict[str, types.CodeType] = {}
    added = False

    def exec_kept(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        nonlocal added
        if type(source) is str:
            code = known.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                added = True
            used[source] = code
            source = code
        builtins.exec(source, globals, locals)  # noqa: S102 (dataclasses' own source)

    dataclasses.exec = exec_kept  # type: ignore[attr-defined]
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
        if added:
            kept = dict(list(used.items())[:_LIMIT])
            for source, code in known.items():
                if len(kept) >= _LIMIT:
                    break
                kept.setdefault(source, code)
            _write(path, kept)
