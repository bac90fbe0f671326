"""A table's rows decoded when first asked for, not all at every start (issue 24, speed).

driver_caps.json's "drivers" holds 229 drivers (~0.97 MB of its 1.28 MB as marshal, ~80 % of
what reading the cached table costs), and every `sbctune inspect` reads the table while a
bundle names 1-20 drivers. So the table cache keeps such a map with each row marshalled on
its own (`packed`): reading the cache makes one bytes object per row (a copy: no objects inside
it to build), and `LazyRows` turns a row into the value json.loads() gives the first time it is
asked for, and keeps it. Everything else a reader does with a plain dict (`get`, `in`, `[]`,
iterating names, `items()`, `==`) reads the same; only writing is refused (the table is shared,
as the lru-cached dict was: no reader writes it).
"""

from __future__ import annotations

import marshal
from collections.abc import Iterator, Mapping
from typing import Any


class LazyRows(Mapping[str, Any]):
    """A read-only map of name to row, each row unmarshalled when first read."""

    __slots__ = ("_packed", "_rows")

    def __init__(self, packed: dict[str, bytes]) -> None:
        self._packed = packed
        self._rows: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        try:
            return self._rows[key]
        except KeyError:
            pass
        # KeyError for a name the table lacks, as a dict raises it (Mapping.get relies on it);
        # marshal reads only what table_cache wrote in the user's private folder (its fits()
        # checked each row is bytes)
        row = self._rows[key] = marshal.loads(self._packed[key])  # noqa: S302
        return row

    def __contains__(self, key: object) -> bool:
        return key in self._packed

    def __iter__(self) -> Iterator[str]:
        return iter(self._packed)

    def __len__(self) -> int:
        return len(self._packed)

    def __repr__(self) -> str:
        return f"LazyRows({len(self._packed)} rows, {len(self._rows)} read)"

    def read(self) -> int:
        """How many rows were decoded so far (for tests and benchmarks)."""
        return len(self._rows)


def packed(value: Any, keys: tuple[str, ...]) -> Any:
    """`value` (a JSON table) with each map under `keys` as name -> marshalled row, the form
    the cache keeps. A value that is not a map, or a key whose value is not a map of rows,
    is kept as it is."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for key in keys:
        rows = value.get(key)
        if isinstance(rows, dict) and all(type(name) is str for name in rows):
            out[key] = {name: marshal.dumps(row) for name, row in rows.items()}
    return out


def is_packed(value: object, keys: tuple[str, ...]) -> bool:
    """A cached value has packed()'s shape: a map whose `keys` (when there) map str to bytes."""
    if not isinstance(value, dict):
        return False
    for key in keys:
        rows = value.get(key)
        if rows is None:
            continue
        if type(rows) is not dict:
            return False
        if not all(type(name) is str for name in rows) or not all(
            type(row) is bytes for row in rows.values()
        ):
            return False
    return True


def unpacked(value: Any, keys: tuple[str, ...]) -> Any:
    """The table as a reader sees it: each packed map under `keys` as LazyRows."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for key in keys:
        rows = value.get(key)
        if type(rows) is dict:
            out[key] = LazyRows(rows)
    return out
