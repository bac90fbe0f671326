"""The shipped catalog, validated once and kept in the table cache (issue 24, speed).

Every `sbctune inspect` loads the hardware catalog (resources/catalog: 4 JSON files, ~77 kB):
json.loads, then the loader's strict schema checks (each field's type, ids, references,
unique keys) and ~300 frozen dataclasses, ~6-15 ms at every start for files that do not change.
The checked result is kept in the table cache (catalog/table_cache.cached: named by the files'
SHA-256, the interpreter, and the loader's, schema's and model's code) as plain data: each
dataclass as its class's place in CLASSES and its fields as the loader set them; the classes'
names and fields are stored with it and must be this code's. Read back, each object is made as
it was (its fields set in their order, no __init__ run: the loader's objects have no
__post_init__) and equals the loader's. Anything else (a file missing or broken, a value the
form cannot hold, a cache of other code) goes through the loader as before, which raises
CatalogError as it always did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from . import model

# every class the loader makes (a new one not listed here: the catalog is not kept, just parsed)
CLASSES: tuple[type, ...] = (
    model.Source,
    model.Note,
    model.Problem,
    model.Measurement,
    model.Drivers,
    model.Figure,
    model.Chip,
    model.PcieLink,
    model.ModelExample,
    model.BuiltinNic,
    model.Expansion,
    model.Board,
    model.Bus,
    model.EthernetFraming,
)
_INDEX = {cls: place for place, cls in enumerate(CLASSES)}
_SCALARS = (str, int, float, bool, type(None))


class _NotKept(Exception):
    """A value the kept form cannot hold (then the catalog is parsed at every run)."""


def signature() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The classes' names and fields: a kept catalog of other classes is not read."""
    return tuple((cls.__name__, tuple(f.name for f in fields(cls))) for cls in CLASSES)


def encode(value: Any) -> Any:
    """Plain data for marshal: a dataclass as [its place in CLASSES, {field: value}], tuples
    and str-keyed dicts as themselves (no list is ever in the catalog: a list is an object)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return tuple(map(encode, value))
    if kind is dict:
        if not all(type(key) is str for key in value):
            raise _NotKept
        return {key: encode(item) for key, item in value.items()}
    place = _INDEX.get(kind)
    if place is None:
        raise _NotKept
    return [place, {name: encode(item) for name, item in vars(value).items()}]


def decode(value: Any) -> Any:
    """encode()'s value back: each object made with its fields as they were set."""
    kind = type(value)
    if kind is list:
        place, attrs = value
        obj = object.__new__(CLASSES[place])
        # frozen dataclasses: their fields set as dataclasses' own __init__ sets them (in
        # place: a frozen class refuses setattr), no __post_init__ in the catalog's model
        obj.__dict__.update({name: decode(item) for name, item in attrs.items()})
        return obj
    if kind is tuple:
        return tuple(map(decode, value))
    if kind is dict:
        return {key: decode(item) for key, item in value.items()}
    return value


def _code_versions() -> str:
    """The loader's, the schema tools' and the model's code (table_cache.code_version of
    each): an edit of any of them makes the catalog be checked again."""
    from . import loader, schema_node
    from .table_cache import code_version, sha256_hex

    words = " ".join(code_version(f) for f in (loader.parse_catalog, schema_node.document))
    words += " " + code_version(model.Chip)  # a class: its module's file
    return sha256_hex(words.encode())[:12]


def kept_catalog(
    read: Callable[[str], bytes],
    files: tuple[str, ...],
    parse: Callable[[], Any],
    where: Callable[[str], Any] | None = None,
) -> Any:
    """`parse()` (the loader, which reads the files itself), or its value kept from a run on
    the same files (`read(name)`: a file's bytes; `where(name)`: its path, whose stat then
    says whether it changed: unchanged files are neither read nor hashed, table_cache's
    cached_files). OSError reading a file: parsed, as before."""
    from .table_cache import cached, cached_files

    source = b""
    if where is None:
        try:
            source = b"\0".join(read(name) for name in files)
        except OSError:
            return parse()
    parsed: list[Any] = []
    shape = signature()

    def build() -> Any:
        parsed.append(parse())  # CatalogError: raised, nothing kept
        try:
            return [shape, encode(parsed[0])]
        except _NotKept:
            return None  # not kept (fits() refuses it: parsed again at each run)

    def fits(value: object) -> bool:
        return type(value) is list and len(value) == 2 and value[0] == shape

    name = f"catalog-{_code_versions()}"
    if where is None:
        value = cached(name, source, build, fits)
    else:
        try:
            value = cached_files(name, tuple(map(where, files)), build, fits)
        except OSError:
            return parse()
    if parsed:
        return parsed[0]
    try:
        return decode(value[1])
    except (TypeError, ValueError, IndexError, AttributeError):  # a torn value: as before
        return parse()
