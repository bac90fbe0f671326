"""`json.dumps(value, indent=N)`'s very text, made in one pass without json's generators.

With an indent, json.dumps runs its pure-Python encoder (CPython 3.11's C encoder has no
indent): a generator per nested list and dict, every piece of text yielded up through each
level above it. `sbctune inspect BUNDLE --json` prints its inventory so (a 100 000-line log's
inventory: ~107 M instructions of json.dumps, issue 24). This writes the same pieces into one
list, each once, with the same C string escaper json uses.

Only the plain values json encodes without a question are taken: exact str, int, float, bool,
None, list, tuple and dict with str keys. Anything else (a subclass, another key type, a value
json would refuse or hand to `default`, a cycle, nesting too deep) is json.dumps' own: this
falls back to it whole, so its text and errors are json's.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any


class _NotPlain(Exception):
    """A value this encoder leaves to json.dumps."""


_INFINITY = float("inf")


def _float(value: float) -> str:
    """json's floatstr with allow_nan (its default): repr, or NaN / Infinity / -Infinity."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def dumps_indented(value: Any, indent: int = 2) -> str:
    """json.dumps(value, indent=indent), the same text (ensure_ascii, no sort, ", " / ": ")."""
    out: list[str] = []
    try:
        _encode(value, "\n", " " * indent, out)
    except (_NotPlain, RecursionError):
        return json.dumps(value, indent=indent)
    return "".join(out)


def _scalar(value: Any) -> str | None:
    """A scalar's text, or None for a list or dict (NotPlain for what json decides itself)."""
    kind = type(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return _float(value)
    if kind is list or kind is tuple or kind is dict:
        return None
    raise _NotPlain


def _encode(value: Any, newline: str, step: str, out: list[str]) -> None:
    """Append value's text; `newline` is the newline and indent of the value's own level.
    A scalar item is written with its separator (and key) as one piece: most items are."""
    text = _scalar(value)
    if text is not None:
        out.append(text)
        return
    inner = newline + step
    comma = "," + inner
    if type(value) is dict:
        if not value:
            out.append("{}")
            return
        lead = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain  # json turns numbers, bools and None into keys: its own rules
            if item is None:  # the commonest items first, without a call (issue 24)
                text = "null"
            elif type(item) is str:
                text = encode_basestring_ascii(item)
            else:
                text = _scalar(item)
            if text is not None:
                out.append(lead + encode_basestring_ascii(key) + ": " + text)
            else:
                out.append(lead + encode_basestring_ascii(key) + ": ")
                _encode(item, inner, step, out)
            lead = comma
        out.append(newline + "}")
        return
    if not value:
        out.append("[]")
        return
    lead = "[" + inner
    for item in value:
        if item is None:
            text = "null"
        elif type(item) is str:
            text = encode_basestring_ascii(item)
        else:
            text = _scalar(item)
        if text is not None:
            out.append(lead + text)
        else:
            out.append(lead)
            _encode(item, inner, step, out)
        lead = comma
    out.append(newline + "]")
