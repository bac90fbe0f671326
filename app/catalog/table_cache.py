"""A table built from a shipped resource, kept in the user's cache folder between runs.

Building the kernel message index from its 2.5 MB source is a Python loop over ~25 000 rows
(~30 ms of every first `inspect`); reading it back with `marshal` takes a fifth of that. The
cache is never trusted blindly: its file is named by, and starts with, the SHA-256 of the
source it was built from, with the Python version (marshal's format is that version's), and
what it holds must pass the caller's check of its shape. It is named too by the code that
builds it (the builder's module file: its size and modification time, as Python's own
__pycache__ checks a module's source), so an edited or upgraded builder never reads a table
its older self made from the same source. Anything else (missing, stale, torn, another
version's, unwritable folder) builds the table from the source as before; the cache only
makes that faster, and deleting it is always safe.

Hashing the sources is itself a cost (a run reads ~7 MB of tables: ~55 M instructions of
SHA-256), so a table read from a file (`cached_file`, `json_file`) remembers the source's
digest beside the file's stat (size, mtime, ctime, inode, device: more than Python's own .pyc
checks) and hashes it again only when the stat changed. A stamp is written only for a file
older than a few seconds (a file written within the filesystem's clock tick could change again
with the same stat: git's "racy" case), it is read only when the user's own, and a frozen app
(PyInstaller: resources unpacked afresh, their stat the build's or the unpacking's) and Windows
(whose st_ctime is the creation time) hash their sources at every run as before.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import marshal
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
_FORMAT = 1  # bump when what a cached table holds changes meaning
_SMALL = 1 << 18  # bytes hashed by CPython's own SHA-256 module; more go to hashlib's (OpenSSL)


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of `data`, in hex. `import hashlib` loads OpenSSL's libcrypto (~12 M
    instructions, 2 % of a small bundle's `sbctune inspect`: callgrind) for what CPython's own
    SHA-256 module hashes in well under a millisecond when the data is small (the catalog's
    77 kB, a file's name): that one then; hashlib's, ~7x faster a byte, for more. The same
    digest either way."""
    if len(data) <= _SMALL and (own := _own_sha256()) is not None:
        return str(own(data).hexdigest())
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _own_sha256() -> Any:
    """CPython's built-in SHA-256 constructor (3.12+: _sha2; before: _sha256), or None (a
    Python without it, a frozen app that left it out: hashlib's then)."""
    for name in ("_sha2", "_sha256"):
        with contextlib.suppress(ImportError):
            return importlib.import_module(name).sha256
    return None


def _header(name: str, digest: str, code: str) -> bytes:
    version = f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}"
    words = f"{_FORMAT} {name} {version} marshal-{marshal.version} code-{code} {digest}"
    return f"sbctune-table {words}\n".encode()


def code_version(build: Callable[..., object]) -> str:
    """The version of the code that builds a table: its module file's size and modification
    time (one stat; "none" when the module has no file, e.g. a frozen build: then the
    interpreter's version and the source's hash alone name the table, as before)."""
    module = sys.modules.get(getattr(build, "__module__", "") or "")
    file = getattr(module, "__file__", None)
    if not file:
        return "none"
    try:
        info = os.stat(file)
    except OSError:
        return "none"
    return f"{info.st_size:x}.{info.st_mtime_ns:x}"


def _private(path: Path) -> bool:
    """The file is the user's own and nobody else can write it (as the folder is made)."""
    getuid = getattr(os, "getuid", None)  # posix-only: Windows has no uids (a private profile)
    if getuid is None:
        return True
    info = path.stat()
    return info.st_uid == getuid() and not info.st_mode & 0o022


def cached(name: str, source: bytes, build: Callable[[], T], fits: Callable[[object], bool]) -> T:
    """`build()`'s value, from the cache when one was made from this very `source`."""
    return _cached(name, sha256_hex(source), build, fits, code_version(build))


_SETTLED_NS = 3_000_000_000  # a stamp only for a file this much older than now (racy stat)


def stat_witnesses_changes(os_name: str) -> bool:
    """Whether a file's stat there shows that its bytes changed. Not on Windows: its st_ctime
    is the file's creation time, not its last change (a file re-created under the same name
    within seconds even gets the old one back, NTFS "tunnelling"), and a stamp's owner cannot
    be checked by uid: there every run hashes its sources, as a frozen app does."""
    return os_name != "nt"


_STAMPS = stat_witnesses_changes(os.name)


def _stat_stamp(path: object) -> str | None:
    """The file's stat as a stamp, or None (not a file on disk, a frozen app, a file changed
    in the last seconds): one os.stat, taken BEFORE the file is read, so a change during the
    read shows at the next run."""
    if not _STAMPS or getattr(sys, "frozen", False) or not isinstance(path, (str, os.PathLike)):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    if max(info.st_mtime_ns, info.st_ctime_ns) > time.time_ns() - _SETTLED_NS:
        return None
    sizes = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)
    return ".".join(map(str, sizes))


def cached_file(
    name: str, path: Any, build: Callable[[bytes], T], fits: Callable[[object], bool]
) -> T:
    """`build(bytes of path)`'s value, from the cache when one was made from this very content:
    the file's digest is remembered beside its stat, so an unchanged file is not read nor hashed
    (a Traversable not on disk is read and hashed as `cached` does). OSError when the file
    cannot be read, as `path.read_bytes()` raises it."""
    code = code_version(build)
    raw: list[bytes] = []

    def source() -> bytes:
        if not raw:
            raw.append(path.read_bytes())
        return raw[0]

    digest = _digest_of_files(name, (path,), source)
    return _cached(name, digest, lambda: build(source()), fits, code)


def cached_files(
    name: str, paths: tuple[Any, ...], build: Callable[[], T], fits: Callable[[object], bool]
) -> T:
    """`build()`'s value, a table made from the files `paths` (its builder reads them itself),
    from the cache when one was made from these very contents: their digest (of their bytes
    joined by NUL) is remembered beside their stats, as cached_file's is, so unchanged files
    are neither read nor hashed (the catalog's four files, at every start). OSError when a
    file must be read and cannot be."""

    def source() -> bytes:
        return b"\0".join(path.read_bytes() for path in paths)

    return _cached(name, _digest_of_files(name, paths, source), build, fits, code_version(build))


def _digest_of_files(name: str, paths: tuple[Any, ...], source: Callable[[], bytes]) -> str:
    """sha256_hex(source()), or the digest a stamp beside the files' stats kept from a run
    when they had these very stats (written now when it had none)."""
    from sbctune.paths import cache_dir

    stamps = [_stat_stamp(path) for path in paths]
    stamp_file = None
    if None not in stamps:
        # one stamp per table and file(s): two checkouts sharing the cache keep one each
        where = "\0".join(os.fspath(path) for path in paths)
        tag = sha256_hex(where.encode("utf-8", "surrogatepass"))[:12]
        stamp_file = cache_dir() / f"{name}-{tag}.stamp"
        stamp = f"{where}\0{';'.join(map(str, stamps))}\0"
        with contextlib.suppress(OSError, ValueError):
            kept = stamp_file.read_text(encoding="utf-8", errors="surrogateescape")
            known = kept[len(stamp) :]
            if kept.startswith(stamp) and len(known) == 64 and _private(stamp_file):
                return known
    digest = sha256_hex(source())
    if stamp_file is not None:
        _write(stamp_file, f"{stamp}{digest}".encode("utf-8", "surrogateescape"), name)
    return digest


def _write(path: Path, data: bytes, name: str) -> None:
    """`data` into `path`, written aside and renamed: a reader never sees half a file, two
    writers never mix (errors ignored: the cache only makes things faster)."""
    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _cached(
    name: str, digest: str, build: Callable[[], T], fits: Callable[[object], bool], code: str
) -> T:
    from sbctune.paths import cache_dir  # platformdirs only when a table is first loaded

    header = _header(name, digest, code)
    folder = cache_dir()
    # the code's version in the name too: two versions of sbctune (an upgrade, two checkouts
    # sharing a cache) keep a table each rather than rebuilding each other's at every run
    tag = sha256_hex(code.encode())[:8]
    path = folder / f"{name}-{digest[:24]}-{tag}.marshal"
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        data = path.read_bytes()
        if data.startswith(header) and _private(path):
            # marshal reads only what this process's own code wrote in the user's private
            # folder (named by the source's hash, checked above and by fits() below)
            value = marshal.loads(data[len(header) :])  # noqa: S302
            if fits(value):
                return value  # type: ignore[no-any-return]  # fits() checked its shape
    value = build()
    plain: Any = value  # marshal takes plain data (str, list, dict ...); fits() checks it back
    with contextlib.suppress(ValueError):  # a value marshal cannot write: not kept
        _write(path, header + marshal.dumps(plain), name)
    return value


def json_table(name: str, source: bytes) -> Any:
    """json.loads() of a shipped JSON table's bytes, kept in the cache as marshal: decoding
    JSON costs about twice what hashing and unmarshalling the same bytes do (callgrind, per
    byte), and a bundle's first inspect reads ~1.5 MB of such tables. The value is the one
    json.loads() gives (marshal keeps dicts' order, floats and ints exactly); a broken file
    raises ValueError as json.loads() does (its text is never cached)."""
    return cached(f"json-{name}", source, lambda: json.loads(source.decode("utf-8")), _json_top)


def json_file(name: str, path: Any, rows: tuple[str, ...] = ()) -> Any:
    """json_table() of a shipped JSON file, which is read and hashed only when its stat changed
    (cached_file). `rows`: top-level maps of which a run reads a few rows (driver_caps.json's
    "drivers"), kept a row at a time and each decoded when first read (catalog/lazy_rows)."""
    if not rows:
        return cached_file(f"json-{name}", path, _json_loads, _json_top)
    from sbctune.catalog.lazy_rows import is_packed, packed, unpacked

    value = cached_file(
        f"json-{name}-rows-{'-'.join(rows)}",
        path,
        lambda raw: packed(_json_loads(raw), rows),
        lambda value: _json_top(value) and is_packed(value, rows),
    )
    return unpacked(value, rows)


def _json_loads(source: bytes) -> Any:
    return json.loads(source.decode("utf-8"))


def _json_top(value: object) -> bool:
    return isinstance(value, (dict, list))
