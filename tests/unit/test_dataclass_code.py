"""The command line's kept dataclass code (cli/dataclass_code.py, issue 24 speed): a class made
from the cache is the class the plain @dataclass makes, and anything odd falls back to it."""

from __future__ import annotations

import dataclasses
import keyword
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.cli import dataclass_code


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SBCTUNE_CACHE_DIR", str(tmp_path))
    return tmp_path / "tables"


def _make(names: list[str], frozen: bool, order: bool, defaults: int) -> type:
    fields: list[Any] = [(n, int) for n in names[: len(names) - defaults]]
    fields += [(n, int, dataclasses.field(default=len(n))) for n in names[len(names) - defaults :]]
    return dataclasses.make_dataclass("Row", fields, frozen=frozen, order=order)


def _methods(cls: type) -> dict[str, Any]:
    names = ("__init__", "__repr__", "__eq__", "__lt__", "__setattr__", "__hash__")
    found = {n: vars(cls).get(n) for n in names}
    return {
        n: (f.__code__, f.__annotations__, f.__defaults__) if hasattr(f, "__code__") else f
        for n, f in found.items()
    }


_NAME = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n)
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(_NAME, min_size=1, max_size=5, unique=True),
    frozen=st.booleans(),
    order=st.booleans(),
    defaults=st.integers(0, 5),
)
def test_a_class_from_the_kept_code_is_the_plain_class(
    cache: Path, names: list[str], frozen: bool, order: bool, defaults: int
) -> None:
    """Its methods' code, annotations and defaults are the plain @dataclass's, whether the
    code was just compiled (first run) or read back from the cache (second run)."""
    defaults = min(defaults, len(names))
    plain = _methods(_make(names, frozen, order, defaults))
    with dataclass_code.dataclass_code_kept(own_process=True):
        first = _methods(_make(names, frozen, order, defaults))
    with dataclass_code.dataclass_code_kept(own_process=True):
        second = _methods(_make(names, frozen, order, defaults))
    assert first == plain
    assert second == plain
    assert "exec" not in vars(dataclasses)  # the stand-in is gone after the block


def test_the_second_run_reads_the_code_it_kept(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with dataclass_code.dataclass_code_kept(own_process=True):
        _make(["a", "b"], True, False, 1)
    kept = list(cache.glob("dataclass-code-*"))
    assert len(kept) == 1
    compiled: list[str] = []
    real = compile

    def counting(*args: Any, **kwargs: Any) -> Any:
        compiled.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(dataclass_code, "compile", counting, raising=False)
    with dataclass_code.dataclass_code_kept(own_process=True):
        row = _make(["a", "b"], True, False, 1)(1)
    assert compiled == []  # every method's code came from the cache
    assert repr(row) == "Row(a=1, b=1)"


def test_a_test_calling_main_leaves_dataclasses_alone(cache: Path) -> None:
    with dataclass_code.dataclass_code_kept(own_process=False):
        assert "exec" not in vars(dataclasses)
        _make(["a"], False, False, 0)
    assert not cache.exists()


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9\x00\x00"])
def test_a_broken_or_foreign_file_compiles_as_before(cache: Path, content: bytes) -> None:
    cache.mkdir(parents=True)
    path = dataclass_code._path()
    path.write_bytes(content)
    os.chmod(path, 0o600)
    with dataclass_code.dataclass_code_kept(own_process=True):
        cls = _make(["x", "y"], False, True, 0)
    assert cls(1, 2) < cls(1, 3)
    assert _methods(cls) == _methods(_make(["x", "y"], False, True, 0))


@pytest.mark.posix_only("file owner and mode bits")
def test_a_file_others_can_write_is_not_read(cache: Path) -> None:
    with dataclass_code.dataclass_code_kept(own_process=True):
        _make(["a"], False, False, 0)
    path = dataclass_code._path()
    os.chmod(path, 0o666)
    assert dataclass_code._read(path) == {}
    os.chmod(path, 0o600)
    assert dataclass_code._read(path) != {}


def test_the_file_keeps_this_runs_code_first_and_stays_bounded(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that compiles something writes its own sources first, then older ones up to the
    limit: another command's or release's classes do not grow the file without end."""
    with dataclass_code.dataclass_code_kept(own_process=True):
        _make(["old"], False, False, 0)
    # how many sources a class makes is the interpreter's (3.11: __init__, __repr__ and __eq__
    # each; 3.13, the Windows lane's: one for all), so the limit is set from this run's count
    made = len(dataclass_code._read(dataclass_code._path()))
    assert made >= 1
    monkeypatch.setattr(dataclass_code, "_LIMIT", made + 1)
    with dataclass_code.dataclass_code_kept(own_process=True):
        _make(["new"], False, False, 0)
    kept = dataclass_code._read(dataclass_code._path())
    assert len(kept) == made + 1
    assert sum("new" in source for source in kept) == made  # this run's own, and one older
    assert sum("old" in source for source in kept) == 1
