"""The catalog loader's tools: a JSON value that knows its file and path (``Node``) so each
schema error names the place, the cross-file references to check at the end (``Refs``), and
``CatalogError``. The loader (``loader``) reads each file's sections with them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..errors import UserError

SCHEMA_VERSION = 1

ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
DEVICE_ID_RE = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{4}$")
REVISION_RE = re.compile(r"^[0-9a-f]{4,8}$")
URL_RE = re.compile(r"^https?://\S+$")


class CatalogError(UserError):
    """A catalog data file is missing, not JSON, or breaks the schema."""

    def __init__(self, message: str) -> None:
        super().__init__(
            f"The hardware catalog is broken: {message}",
            "reinstall sbctune, or fix the file under resources/catalog/",
        )


class Node:
    """A JSON value with the path that leads to it, for error messages."""

    def __init__(self, value: Any, file: str, path: str) -> None:
        self.value = value
        self.file = file
        self.path = path

    def fail(self, message: str) -> CatalogError:
        return CatalogError(f"{self.file}: {self.path}: {message}")

    def _child(self, key: str) -> Node:
        obj = self.obj()
        return Node(obj.get(key), self.file, f"{self.path}.{key}" if self.path else key)

    def obj(self) -> Mapping[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail(f"expected an object, got {type(self.value).__name__}")
        return self.value

    def has(self, key: str) -> bool:
        return key in self.obj() and self.obj()[key] is not None

    def get(self, key: str) -> Node:
        if key not in self.obj():
            raise self.fail(f"missing required field '{key}'")
        return self._child(key)

    def opt(self, key: str) -> Node | None:
        return self._child(key) if self.has(key) else None

    def items(self, key: str, *, required: bool = True) -> Iterator[Node]:
        if not required and not self.has(key):
            return
        node = self.get(key)
        if not isinstance(node.value, list):
            raise node.fail("expected a list")
        for index, value in enumerate(node.value):
            yield Node(value, self.file, f"{node.path}[{index}]")

    def string(self, key: str) -> str:
        node = self.get(key)
        if not isinstance(node.value, str) or not node.value.strip():
            raise node.fail("expected a non-empty string")
        return node.value

    def opt_str(self, key: str, default: str | None = None) -> str | None:
        return self.string(key) if self.has(key) else default

    def text(self, key: str) -> str:
        """An optional free-text field; empty when absent."""
        return self.opt_str(key) or ""

    def integer(self, key: str) -> int:
        node = self.get(key)
        if isinstance(node.value, bool) or not isinstance(node.value, int):
            raise node.fail("expected an integer")
        return node.value

    def opt_int(self, key: str) -> int | None:
        return self.integer(key) if self.has(key) else None

    def number(self, key: str) -> float:
        node = self.get(key)
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise node.fail("expected a number")
        return float(node.value)

    def flag(self, key: str, default: bool = False) -> bool:
        if not self.has(key):
            return default
        node = self.get(key)
        if not isinstance(node.value, bool):
            raise node.fail("expected true or false")
        return node.value

    def opt_bool(self, key: str) -> bool | None:
        return self.flag(key) if self.has(key) else None

    def strs(self, key: str) -> tuple[str, ...]:
        out: list[str] = []
        for item in self.items(key, required=False):
            if not isinstance(item.value, str) or not item.value.strip():
                raise item.fail("expected a non-empty string")
            out.append(item.value)
        return tuple(out)

    def ints(self, key: str) -> tuple[int, ...]:
        out: list[int] = []
        for item in self.items(key, required=False):
            if isinstance(item.value, bool) or not isinstance(item.value, int):
                raise item.fail("expected an integer")
            out.append(item.value)
        return tuple(out)

    def enum(self, key: str, allowed: frozenset[str]) -> str:
        value = self.string(key)
        if value not in allowed:
            raise self.get(key).fail(f"'{value}' is not one of {sorted(allowed)}")
        return value


class Refs:
    """Cross-file references to check once every file is read."""

    def __init__(self) -> None:
        self.sources: list[tuple[Node, str]] = []
        self.boards: list[tuple[Node, str]] = []
        self.chips: list[tuple[Node, str]] = []
        self.buses: list[tuple[Node, str]] = []

    def source(self, node: Node, key: str) -> str:
        value = node.string(key)
        self.sources.append((node.get(key), value))
        return value

    def opt_source(self, node: Node, key: str) -> str | None:
        return self.source(node, key) if node.has(key) else None


def document(read: Callable[[str], str], name: str) -> Node:
    try:
        text = read(name)
    except (OSError, FileNotFoundError) as exc:
        raise CatalogError(f"{name}: cannot read it ({exc})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CatalogError(
            f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    root = Node(data, name, "")
    root.obj()
    schema = root.get("schema")
    if schema.value != SCHEMA_VERSION:
        raise schema.fail(f"unsupported schema {schema.value!r}, expected {SCHEMA_VERSION}")
    return root


def unique_id(node: Node, seen: set[str], what: str) -> str:
    value = node.string("id")
    if not ID_RE.match(value):
        raise node.get("id").fail(f"{what} id '{value}' must be lower-case letters, digits, '-'")
    if value in seen:
        raise node.get("id").fail(f"duplicate {what} id '{value}'")
    seen.add(value)
    return value
