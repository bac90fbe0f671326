"""dataclasses.asdict(), the same result at a fifth of the cost (issue 24, speed).

`inspect --json` turns the whole Inventory into plain data once per run; with a long log
(217 NICs, 274 findings, ~14 000 values) asdict() took ~40 ms of the command, because for
every value it asks `fields()` of the value's class again and passes every leaf through
`copy.deepcopy`. Here a class's field names are read once, and a leaf of an exact
str, int, float, bool or None type is returned itself (what copy.deepcopy returns for them:
copy._deepcopy_atomic). Everything else follows asdict()'s own rules in asdict()'s order
(dataclass, namedtuple, list or tuple, dict, else a deep copy), so the result is equal, of the
same types, and json.dumps() writes the same bytes (tests/unit/test_plain_data.py).
"""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

# exactly these types (not subclasses: a str Enum goes the general way, as in asdict())
_ATOMIC = frozenset({str, int, float, bool, type(None)})
# a class → its fields' names, or None when it is no dataclass (asked once per class)
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _names(kind: type) -> tuple[str, ...] | None:
    if kind not in _FIELDS:
        # asdict's own test (dataclasses._is_dataclass_instance), once per class
        is_dataclass = hasattr(kind, "__dataclass_fields__")
        _FIELDS[kind] = tuple(f.name for f in fields(kind)) if is_dataclass else None
    return _FIELDS[kind]


def as_plain(obj: Any) -> Any:
    """asdict(obj) for a dataclass instance; for any other value what asdict() makes of it
    inside one."""
    kind = type(obj)
    if kind in _ATOMIC:
        return obj
    names = _names(kind)
    if names is not None:
        out = {}
        for name in names:  # a leaf is tested here: no call for each of ~10 000 leaves
            value = getattr(obj, name)
            out[name] = value if type(value) in _ATOMIC else as_plain(value)
        return out
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a namedtuple, as asdict()
        return kind(*[as_plain(v) for v in obj])
    if kind is list:
        return [v if type(v) in _ATOMIC else as_plain(v) for v in obj]
    if isinstance(obj, (list, tuple)):
        return kind(as_plain(v) for v in obj)
    if isinstance(obj, dict):
        return kind((as_plain(k), as_plain(v)) for k, v in obj.items())
    return copy.deepcopy(obj)
