"""Dataclasses' made-up docstrings written when first read, not at every start of the program.

A dataclass with no docstring of its own gets one from `@dataclass`: "Name(field: type, ...)",
the text of `inspect.signature(cls)` (CPython 3.11 dataclasses._process_class). Building that
signature is ~80 us a class: ~8-10 ms of a fresh `sbctune inspect BUNDLE` for the ~100
dataclasses it imports, for a text nobody reads while the command runs (help() and pydoc do).
So, in the process's own command only (as dataclass_code does for the methods), the stand-in
`_process_class` set in dataclasses' namespace marks such a class as documented while
dataclasses processes it, then gives it a `__doc__` that makes dataclasses' very text, by
dataclasses' very steps, when it is first read (from the class or an instance) and keeps it.
A class with a docstring of its own, or a newer Python whose dataclasses no longer look
`_process_class` up there, is made as before.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
from collections.abc import Iterator
from typing import Any

# What `getattr(cls, "__doc__")` answers while dataclasses processes the class: not empty, so
# dataclasses does not build the text now. Replaced before the class is seen by anyone.
_PENDING = "(docstring made when first read)"


class _DocLater:
    """A class's `__doc__` as dataclasses would have written it, made when first read."""

    __slots__ = ("owner",)

    def __init__(self, owner: type) -> None:
        self.owner = owner

    def __get__(self, instance: object, owner: type | None = None) -> str:
        cls = self.owner
        try:  # dataclasses' own steps (3.11 _process_class), on the finished class
            text_sig = str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            text_sig = ""
        doc = cls.__name__ + text_sig
        cls.__doc__ = doc  # kept: the next read is a plain attribute
        return doc


@contextlib.contextmanager
def dataclass_docs_later(own_process: bool) -> Iterator[None]:
    """For the block, a dataclass with no docstring gets dataclasses' one when first read."""
    original = vars(dataclasses).get("_process_class")
    if not own_process or original is None or hasattr(original, "docs_later"):
        yield
        return

    def process_class(cls: type, *args: Any, **kwargs: Any) -> type:
        if cls.__dict__.get("__doc__") is not None:  # a docstring of its own: as before
            return original(cls, *args, **kwargs)  # type: ignore[no-any-return]
        cls.__doc__ = _PENDING
        try:
            made: type = original(cls, *args, **kwargs)
        except BaseException:
            cls.__doc__ = None
            raise
        for each in {cls, made}:  # slots=True makes a new class from cls's namespace
            if each.__dict__.get("__doc__") is _PENDING:
                each.__doc__ = _DocLater(each)  # type: ignore[assignment]
        return made

    process_class.docs_later = True  # type: ignore[attr-defined]
    dataclasses._process_class = process_class  # type: ignore[attr-defined]
    try:
        yield
    finally:
        dataclasses._process_class = original  # type: ignore[attr-defined]
