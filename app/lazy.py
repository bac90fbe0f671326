"""Package namespaces whose public names load on first use (PEP 562), so importing one light
submodule does not import the whole package (issue 22: `sbctune inspect BUNDLE` needs no SSH).

A package's ``__init__`` imports its names under ``TYPE_CHECKING`` (for mypy and readers) and
binds ``__getattr__``/``__dir__`` from `exports`, with a map from each public name to the
submodule that defines it. ``from package import name`` and ``package.name`` work as before;
so does ``package.submodule`` for a submodule not yet imported.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def names_in(submodule: str, names: Iterable[str]) -> dict[str, str]:
    """`{name: submodule}` for each of `names`: one entry of an `exports` map."""
    return dict.fromkeys(names, submodule)


def exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The package's ``__getattr__`` and ``__dir__``; `where` maps a public name to its
    submodule."""

    def __getattr__(name: str) -> Any:
        submodule = where.get(name)
        if submodule is None:
            return _submodule(package, name)
        value = getattr(importlib.import_module(f"{package}.{submodule}"), name)
        setattr(sys.modules[package], name, value)  # the next look-up is a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__


def _submodule(package: str, name: str) -> types.ModuleType:
    """`package.submodule` as an attribute, as when the package imported it eagerly."""
    full = f"{package}.{name}"
    if not name.startswith("_"):
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name != full:
                raise
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


def keep_names_over_submodules(package: str, names: Iterable[str]) -> None:
    """A public name that is also a submodule's (`workflow.one_click`, the function in
    `workflow/one_click.py`) stays the function: the import system sets the package's attribute
    to the submodule once that loads, which an eager ``from .one_click import one_click`` in the
    ``__init__`` used to undo."""
    module = sys.modules[package]
    shadowed = frozenset(names)

    class _Package(types.ModuleType):
        def __setattr__(self, name: str, value: object) -> None:
            if name in shadowed and isinstance(value, types.ModuleType):
                return  # the submodule stays reachable in sys.modules
            super().__setattr__(name, value)

    module.__class__ = _Package
