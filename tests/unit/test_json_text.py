"""`sbctune inspect BUNDLE --json` prints json.dumps(..., indent=2)'s very text, made in one pass
(sbctune.json_text; issue 24: json's pure-Python indenting encoder was ~107 M instructions of a
100 000-line log's inspect). Same text for any JSON value, json's own answer (fallback) for
anything it is not sure of."""

from __future__ import annotations

import enum
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.cli.main import main
from sbctune.json_text import dumps_indented

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "tests" / "captures" / "bundles" / "t2linux_191_rtl8153_480m"

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF))
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=30,
)


def _same(value: Any, indent: int = 2) -> None:
    assert dumps_indented(value, indent=indent) == json.dumps(value, indent=indent)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.sampled_from([0, 1, 2, 4]))
def test_any_json_value_gives_json_dumps_text(value: Any, indent: int) -> None:
    _same(value, indent)


class _Kind(enum.IntEnum):
    A = 1


class _Text(str):
    pass


@pytest.mark.parametrize(
    "value",
    [
        {2: "a", 2.5: "b", True: "c", None: "d"},  # json's own key rules
        {"a": _Kind.A, "b": [_Text("x")]},  # subclasses: json decides
        [math.nan, math.inf, -math.inf, -0.0, 1e300, 5e-324],
        {"": [], "x": {}, "y": [[], {}], "z": [None, True, False, 0]},
        '\u2028\ud83d\ude00\x00\x7f"\\',
    ],
)
def test_values_json_decides_itself_give_its_text(value: Any) -> None:
    _same(value)


@pytest.mark.parametrize("value", [{"a": {1, 2}}, [b"bytes"], {("t",): 1}])
def test_what_json_refuses_it_refuses_with_json_error(value: Any) -> None:
    with pytest.raises(TypeError) as want:
        json.dumps(value, indent=2)
    with pytest.raises(TypeError) as got:
        dumps_indented(value)
    assert str(got.value) == str(want.value)


def test_a_cycle_is_refused_as_json_refuses_it() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference detected"):
        dumps_indented(loop)


def test_inspect_json_is_printed_without_json_encoder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The command's output is json.dumps' text, and json's encoder is not what made it (it
    was before: the test then fails on the patched json.dumps)."""
    monkeypatch.setenv("SBCTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    from sbctune.advice.inspect import inspect_bundle

    want = json.dumps(inspect_bundle(str(BUNDLE)).to_json(), indent=2) + "\n"

    def refused(*_args: object, **_kwargs: object) -> str:
        raise AssertionError("json.dumps made the inventory's text")

    monkeypatch.setattr(json, "dumps", refused)
    assert main(["inspect", str(BUNDLE), "--json"]) == 0
    assert capsys.readouterr().out == want
