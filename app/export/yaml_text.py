"""A small YAML writer for playbooks (no YAML library in the core's dependencies).

Strings are always double-quoted with JSON escapes, which YAML reads the same way, so no value
(a Jinja expression, a path with a colon) can change the document's structure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sbctune.textsafe import visible


class Unsafe(str):
    """A string Ansible must not template (file contents): written with the !unsafe tag."""


def _scalar(value: Any) -> str:
    if isinstance(value, Unsafe):
        return "!unsafe " + json.dumps(str(value), ensure_ascii=False)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    return json.dumps(str(value), ensure_ascii=False)


def _lines(value: Any, indent: int) -> list[str]:
    pad = " " * indent
    if isinstance(value, Mapping):
        if not value:
            return [pad + "{}"]
        out = []
        for key, item in value.items():
            if _is_block(item):
                out.append(f"{pad}{key}:")
                out.extend(_lines(item, indent + 2))
            else:
                out.append(f"{pad}{key}: {_inline(item)}")
        return out
    if isinstance(value, Sequence) and not isinstance(value, str):
        if not value:
            return [pad + "[]"]
        out = []
        for item in value:
            if _is_block(item):
                inner = _lines(item, indent + 2)
                out.append(f"{pad}- {inner[0].lstrip()}")
                out.extend(inner[1:])
            else:
                out.append(f"{pad}- {_inline(item)}")
        return out
    return [pad + _scalar(value)]


def _is_block(value: Any) -> bool:
    return isinstance(value, Mapping | list | tuple) and len(value) > 0


def _inline(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{}"
    if isinstance(value, list | tuple):
        return "[]"
    return _scalar(value)


def dump(document: Any, header: Sequence[str] = ()) -> str:
    # A comment is one line whatever a Pi's name holds; every control or bidi character is
    # escaped (inside double quotes YAML reads \\uXXXX back; in a comment it is only shown).
    comments = [f"# {' '.join(str(line).splitlines())}".rstrip() for line in header]
    return visible("\n".join(["---", *comments, *_lines(document, 0)]) + "\n")
