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
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sbctune.cli.kept_marshal import kept_path, newest_first, read_kept, write_kept

_FORMAT = 1
# sources kept (`inspect` makes ~450): when a run adds some, its own come first and older
# ones (another command's, an older release's) fill up to this, so the file stays small
_LIMIT = 1_500


def _path() -> Path:
    return kept_path("dataclass-code", _FORMAT)


def _read(path: Path) -> dict[str, types.CodeType]:
    value = read_kept(path)
    if isinstance(value, dict) and all(
        type(k) is str and type(v) is types.CodeType for k, v in value.items()
    ):
        return value
    return {}


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
            write_kept(path, newest_first(used, known, _LIMIT), prefix=".dataclass-code-")
