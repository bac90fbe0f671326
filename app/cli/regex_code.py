"""Regexes made without parsing and compiling their pattern at every start of the program.

`re.compile` parses a pattern's text and compiles it to the regex engine's code (CPython's
re._parser and re._compiler, in Python): `sbctune inspect BUNDLE` compiles ~450 patterns (its
parsers', the kernel message table's), ~70-95 ms of CPU at every start (issue 24, speed), and
Python keeps no such code between runs. So, in the process's own command only (as
dataclass_code does for dataclasses), what re._compiler.compile hands the engine for a pattern
text and flags (its final flags, code, group count and names) is kept in the user's cache
folder (marshal, keyed by the interpreter's version and the engine's MAGIC: the same text and
flags compiled by the same interpreter give the same code), and the pattern is made from it by
the engine's own constructor (`_sre.compile`, which checks the code it is given); what is kept
was first checked to remake the very pattern re compiled (`==`: flags, text and code). A pattern
that is not a `str`, or any debug flag, compiles as before; a file that is missing, another
version's, torn or not the user's own is ignored. A pattern made so equals the plain one
(`Pattern.__eq__` compares flags, text and code: tests/unit/test_regex_code.py).
"""

from __future__ import annotations

import contextlib
import marshal
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from sbctune.cli.kept_marshal import kept_path, newest_first, read_kept, write_kept

_FORMAT = 2  # 2: each entry marshalled on its own, decoded when used
_LIMIT = 3_000  # patterns kept (`inspect` compiles ~450): a run's own first, then older ones

_Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


def _valid(value: object) -> dict[tuple[str, int], bytes]:
    """The kept file's map: (pattern text, flags) -> that pattern's entry, marshalled on its
    own (decoded by `_entry` when a run compiles the pattern: `inspect` uses ~170-450 of the
    ~750 kept, and reading them all cost ~2 ms a start, issue 24)."""
    if not isinstance(value, dict):
        return {}
    for key, packed in value.items():
        if not (
            type(key) is tuple
            and len(key) == 2
            and type(key[0]) is str
            and type(key[1]) is int
            and type(packed) is bytes
        ):
            return {}
    return value


def _entry(packed: bytes) -> _Entry | None:
    """A kept entry read back, or None when it is not of the shape re's compiler gives."""
    try:
        # marshal reads only what this process's own code wrote in the user's private folder
        entry = marshal.loads(packed)  # noqa: S302
    except (ValueError, EOFError, TypeError):
        return None
    if (
        type(entry) is tuple
        and len(entry) == 5
        and type(entry[0]) is int
        and type(entry[1]) is list
        and type(entry[2]) is int
        and type(entry[3]) is dict
        and type(entry[4]) is tuple
    ):
        return entry
    return None


def _engine() -> tuple[Any, Any, Any, int] | None:
    """re's compiler module, its parser and the engine; None when this Python's differ."""
    compiler = getattr(re, "_compiler", None)
    parser = getattr(re, "_parser", None)
    sre = sys.modules.get("_sre")
    if compiler is None or parser is None or sre is None:
        return None
    needed = (getattr(compiler, "compile", None), getattr(compiler, "_code", None))
    if None in needed or not hasattr(sre, "compile") or not hasattr(sre, "MAGIC"):
        return None
    return compiler, parser, sre, int(sre.MAGIC)


def kept_compile(
    known: dict[tuple[str, int], bytes],
    used: dict[tuple[str, int], bytes],
    plain: Callable[..., Any],
    parser: Any,
    compiler: Any,
    sre: Any,
) -> Callable[..., Any]:
    """A stand-in for re._compiler.compile reading `known` and recording in `used`."""
    debug = int(re.DEBUG)

    def compile_kept(p: Any, flags: int = 0) -> Any:
        if type(p) is not str or not isinstance(flags, int) or flags & debug:
            return plain(p, flags)
        flags = int(flags)  # re._compile passes a plain int; a RegexFlag is one too
        key = (p, flags)
        packed = known.get(key)
        entry = None if packed is None else _entry(packed)
        if packed is None or entry is None:  # compiled by re; kept when its parts remake it
            pattern = plain(p, flags)
            with contextlib.suppress(Exception):  # another Python's internals: just not kept
                entry = _parts(p, flags, parser, compiler)
                if sre.compile(p, entry[0], entry[1], *entry[2:]) == pattern:
                    used[key] = marshal.dumps(entry)
            return pattern
        used[key] = packed
        final, code, groups, names, index_t = entry
        return sre.compile(p, final, code, groups, dict(names), index_t)  # code copied there

    return compile_kept


def _parts(p: str, flags: int, parser: Any, compiler: Any) -> _Entry:
    """What re._compiler.compile (3.11-3.13) hands the engine for a pattern text and flags."""
    parsed = parser.parse(p, flags)
    code = [int(op) for op in compiler._code(parsed, flags)]  # named opcodes: plain ints
    names = dict(parsed.state.groupdict)
    index: list[str | None] = [None] * parsed.state.groups
    for name, number in names.items():
        index[number] = name
    return (flags | parsed.state.flags, code, parsed.state.groups - 1, names, tuple(index))


@contextlib.contextmanager
def regex_code_kept(own_process: bool) -> Iterator[None]:
    """For the block, a pattern compiled before (any run of this interpreter) is not parsed."""
    engine = _engine()
    if not own_process or engine is None:
        yield
        return
    compiler, parser, sre, magic = engine
    plain = compiler.compile
    path = kept_path(f"regex-code-m{magic:x}", _FORMAT)
    known = _valid(read_kept(path))
    used: dict[tuple[str, int], bytes] = {}
    compiler.compile = kept_compile(known, used, plain, parser, compiler, sre)
    try:
        yield
    finally:
        compiler.compile = plain
        if any(known.get(key) is not packed for key, packed in used.items()):  # new or torn
            write_kept(path, newest_first(used, known, _LIMIT), prefix=".regex-code-")
