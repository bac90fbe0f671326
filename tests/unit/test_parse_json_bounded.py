"""JSON from a Pi or the history is read with a depth and size limit: nested 200 000 deep it
is a ValueError naming it (every reader copes with those), never a RecursionError."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.limits import MAX_STORED_JSON_DEPTH, parse_json


@pytest.mark.parametrize("deep", ["[" * 200_000 + "]" * 200_000, '{"a":' * 100_000 + "1"])
def test_deep_json_is_a_value_error_naming_what_it_was(deep: str) -> None:
    with pytest.raises(ValueError, match=r"session.json nests \d+ levels deep"):
        parse_json(deep, "session.json")


def test_json_at_the_limit_and_brackets_in_strings_still_read() -> None:
    at_limit = "[" * MAX_STORED_JSON_DEPTH + "]" * MAX_STORED_JSON_DEPTH
    assert parse_json(at_limit, "x") is not None
    with pytest.raises(ValueError):
        parse_json("[" + at_limit + "]", "x")
    assert parse_json('{"k": "[[[[{{{{"}', "x") == {"k": "[[[[{{{{"}


def test_too_large_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(ValueError, match="more than sbctune reads"):
        parse_json(b"[" + b"1," * 600 + b"1]", "x", max_bytes=1000)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='[]{}":,1a\\ ', max_size=400))
def test_any_text_is_a_value_or_a_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):  # anything else (RecursionError) fails the test
        parse_json(text, "x")
