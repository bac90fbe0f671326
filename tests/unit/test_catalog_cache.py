"""The shipped catalog checked once and kept in the table cache (issue 24: the loader's schema
checks and ~300 dataclasses at every `sbctune inspect`): read back, it is the very catalog the
loader makes, and anything the cache cannot vouch for goes through the loader as before."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from sbctune.catalog import catalog as catalog_module
from sbctune.catalog import catalog_cache, loader
from sbctune.catalog.loader import FILES, parse_catalog
from sbctune.catalog.schema_node import CatalogError
from sbctune.resources import resource_root

FOLDER = resource_root().joinpath("catalog")


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SBCTUNE_CACHE_DIR", str(tmp_path))
    catalog_module._default_catalog.cache_clear()
    yield tmp_path / "tables"
    catalog_module._default_catalog.cache_clear()


def _parsed() -> Any:
    return parse_catalog(lambda name: FOLDER.joinpath(name).read_text(encoding="utf-8"))


def _same(one: Any, other: Any) -> None:
    """Equal, and of the same types all the way down (a dataclass's == compares fields only
    when both are of its class; a tuple read back as a list would still differ here)."""
    assert type(one) is type(other)
    if dataclasses.is_dataclass(one):
        assert one == other and list(vars(one)) == list(vars(other))
        for name, value in vars(one).items():
            _same(value, vars(other)[name])
    elif isinstance(one, (tuple, list)):
        assert len(one) == len(other)
        for a, b in zip(one, other, strict=True):
            _same(a, b)
    elif isinstance(one, dict):
        assert list(one) == list(other)
        for key, value in one.items():
            _same(value, other[key])
    else:
        assert one == other


def test_a_second_run_reads_the_checked_catalog_without_checking_it(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run checks the files and keeps the result; a second (a new process: the
    lru cache cleared) runs no schema check and gets the same objects, field for field and
    type for type (before: every run ran the loader)."""
    want = _parsed()
    first = catalog_module.load_catalog()
    catalog_module._default_catalog.cache_clear()
    checks: list[str] = []

    def counted(read: Any) -> Any:
        checks.append("parse")
        return parse_catalog(read)

    monkeypatch.setattr(catalog_module, "parse_catalog", counted)
    second = catalog_module.load_catalog()
    assert checks == []
    assert len(list(cache.glob("catalog-*.marshal"))) == 1
    for got in (first, second):
        _same(
            (got._sources, got._chips, got._boards, got._buses, got.ethernet_framing),
            tuple(want),
        )
    chip = next(iter(second._chips.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        chip.id = "changed"  # type: ignore[misc]


def test_kept_catalog_of_other_classes_is_checked_again(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalog kept by code whose classes had other fields is not read: parsed again."""
    read = lambda name: FOLDER.joinpath(name).read_bytes()  # noqa: E731
    catalog_cache.kept_catalog(read, FILES, _parsed)
    monkeypatch.setattr(catalog_cache, "signature", lambda: (("Chip", ("id",)),))
    parsed: list[int] = []
    got = catalog_cache.kept_catalog(read, FILES, lambda: parsed.append(1) or _parsed())
    assert parsed == [1]
    _same(got, _parsed())


def test_a_missing_or_broken_file_raises_as_the_loader_does(cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "catalog"
    folder.mkdir()
    for name in FILES:
        (folder / name).write_bytes(FOLDER.joinpath(name).read_bytes())
    (folder / "chips.json").write_text("{not json", encoding="utf-8")

    def read_text(name: str) -> str:
        return (folder / name).read_text(encoding="utf-8")

    def read(name: str) -> bytes:
        return (folder / name).read_bytes()

    for _ in range(2):  # nothing kept after a failure
        with pytest.raises(CatalogError):
            catalog_cache.kept_catalog(read, FILES, lambda: loader.parse_catalog(read_text))
    (folder / "chips.json").unlink()
    with pytest.raises(CatalogError):
        catalog_cache.kept_catalog(read, FILES, lambda: loader.parse_catalog(read_text))


def test_a_value_the_form_cannot_hold_is_not_kept(cache: Path) -> None:
    """An object of a class the list does not know (or a list) makes the catalog be parsed
    at every run, as before: never a wrong object read back."""

    @dataclasses.dataclass(frozen=True)
    class Other:
        x: int = 1

    def read(name: str) -> bytes:
        return name.encode()

    for odd in ({"a": Other()}, {"a": [1, 2]}, {1: "a"}):
        runs: list[object] = []

        def parse(value: object = odd, runs: list[object] = runs) -> object:
            runs.append(value)
            return value

        for _ in range(2):
            assert catalog_cache.kept_catalog(read, ("x",), parse) == odd
        assert runs == [odd, odd]


@pytest.mark.posix_only("stat stamps are kept only where st_ctime is a change time")
def test_a_second_run_neither_reads_nor_hashes_unchanged_files(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files' digest is kept beside their stats (table_cache.cached_files): a second run
    reads no catalog file and hashes nothing of them; a file changed since is read and the
    catalog checked again, as before."""
    from sbctune.catalog import table_cache

    monkeypatch.setattr(table_cache, "_SETTLED_NS", -(10**18))  # files written just now
    folder = tmp_path / "catalog"
    folder.mkdir()
    for name in FILES:
        (folder / name).write_bytes(FOLDER.joinpath(name).read_bytes())
    reads: list[str] = []

    def read(name: str) -> bytes:
        reads.append(name)
        return (folder / name).read_bytes()

    def parse() -> Any:
        return parse_catalog(lambda name: (folder / name).read_text(encoding="utf-8"))

    hashed: list[int] = []
    real = table_cache.sha256_hex
    monkeypatch.setattr(
        table_cache, "sha256_hex", lambda data: hashed.append(len(data)) or real(data)
    )
    first = catalog_cache.kept_catalog(read, FILES, parse, where=folder.joinpath)
    size = sum((folder / name).stat().st_size for name in FILES) + len(FILES) - 1
    assert size in hashed  # the first run hashed the files' bytes (joined by NUL)
    hashed.clear()
    second = catalog_cache.kept_catalog(
        read, FILES, lambda: pytest.fail("checked"), where=folder.joinpath
    )
    assert reads == [] and size not in hashed  # read back by the stamp alone
    _same(second, first)
    board = folder / FILES[0]
    board.write_bytes(board.read_bytes() + b"\n")  # changed: another size
    checks: list[int] = []
    catalog_cache.kept_catalog(
        read, FILES, lambda: checks.append(1) or parse(), where=folder.joinpath
    )
    assert checks == [1]
