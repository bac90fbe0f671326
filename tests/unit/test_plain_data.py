"""`inspect --json` makes its plain data with as_plain(), not dataclasses.asdict() (issue 24,
speed): the same values of the same types, so the same bytes printed, on real inventories and
on any tree of dataclasses, containers and leaves; and a class's fields are read once."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections import namedtuple
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory import plain_data
from sbctune.inventory.plain_data import as_plain

ROOT = Path(__file__).resolve().parents[2]


class Colour(str, enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


Pair = namedtuple("Pair", "left right")


@dataclass
class Leaf:
    name: str = "x"
    value: Any = None


@dataclass
class Empty:
    pass


@dataclass
class Node:
    items: list[Any] = field(default_factory=list)
    pairs: tuple[Any, ...] = ()
    table: dict[Any, Any] = field(default_factory=dict)
    child: Any = None


_LEAF = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.sampled_from([Colour.RED, Level.LOW, b"raw", frozenset({1})])
)


def _tree(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
        | st.builds(Pair, inner, inner)
        | st.builds(Leaf, st.text(max_size=3), inner)
        | st.builds(Node, st.lists(inner, max_size=3), st.lists(inner, max_size=2).map(tuple))
        | st.builds(
            Node, child=inner, table=st.dictionaries(st.text(max_size=2), inner, max_size=2)
        )
        | st.just(Empty())
    )


_VALUES = st.recursive(_LEAF, _tree, max_leaves=25)


def _typed(value: Any) -> Any:
    """The value with each part's type beside it (== alone takes 1 for True, a tuple for a
    Pair): what must be the same for json.dumps and any reader to get the same."""
    if isinstance(value, dict):
        return ("dict", type(value), [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return ("seq", type(value), [_typed(v) for v in value])
    return (type(value), value)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_any_tree_is_what_asdict_gives(value: Any) -> None:
    top = Node(items=[value], child=value)
    got, want = as_plain(top), asdict(top)
    assert _typed(got) == _typed(want)
    assert got == want


def test_a_leaf_that_is_no_atom_is_a_deep_copy_as_in_asdict() -> None:
    inner = [1, 2]
    top = Leaf(value={"k": bytearray(b"ab"), "s": {3}})
    top.value["list"] = inner
    got = as_plain(top)
    assert got == asdict(top)
    assert got["value"]["k"] is not top.value["k"]  # copied (deepcopy), as asdict does
    assert got["value"]["list"] is not inner


_BUNDLES = sorted((ROOT / "tests" / "captures" / "bundles").iterdir()) + [
    ROOT / "resources" / "lab" / "profiles" / name
    for name in ("pi4-ax88179", "cm4-i340-igb", "pi3bplus-lan78xx")
]


@pytest.mark.parametrize("bundle", _BUNDLES, ids=lambda p: p.name)
def test_a_real_inventorys_json_is_the_same_bytes(bundle: Path) -> None:
    inventory = inspect_bundle(str(bundle))
    data = inventory.to_json()
    want = asdict(inventory)
    throttled = inventory.board.throttled
    if throttled is not None:  # to_json's own two keys
        want["board"]["throttled"]["any_now"] = throttled.any_now
        want["board"]["throttled"]["any_since_boot"] = throttled.any_since_boot
    assert json.dumps(data, indent=2) == json.dumps(want, indent=2)
    assert _typed(data) == _typed(want)
    assert data["board"]


def test_a_class_s_fields_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """asdict() asks fields() for each instance (217 NICs, 274 findings ... in a long log's
    inventory); as_plain() once per class."""
    asked: list[type] = []
    real = dataclasses.fields

    def counting(kind: Any) -> Any:
        asked.append(kind if isinstance(kind, type) else type(kind))
        return real(kind)

    monkeypatch.setattr(plain_data, "fields", counting)
    monkeypatch.setattr(plain_data, "_FIELDS", {})
    as_plain(Node(items=[Leaf(str(n)) for n in range(50)], child=Node(items=[Leaf()])))
    assert sorted(k.__name__ for k in asked) == ["Leaf", "Node"]
