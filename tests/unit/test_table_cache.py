"""The tables cached between runs (issue 24, speed) are the tables built from the source: a
cache is used only when made from this very source, and anything else (changed source, torn
or foreign file) builds the table again, never an error."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.catalog import kernel_messages as km
from sbctune.catalog import table_cache
from sbctune.resources import resource_root


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SBCTUNE_CACHE_DIR", str(tmp_path))
    return tmp_path / "tables"


def _counting(value: object) -> tuple[list[int], object]:
    built: list[int] = []

    def build() -> object:
        built.append(1)
        return value

    return built, build


def _fits(value: object) -> bool:
    return isinstance(value, dict)


def test_a_second_load_reads_what_the_first_built(cache: Path) -> None:
    built, build = _counting({"a": ["1\t2\t3\t4"]})
    first = table_cache.cached("t", b"source", build, _fits)
    second = table_cache.cached("t", b"source", build, _fits)
    assert first == second == {"a": ["1\t2\t3\t4"]}
    assert built == [1]  # the second came from the file
    assert len(list(cache.glob("t-*.marshal"))) == 1


def test_another_source_is_built_again(cache: Path) -> None:
    built, build = _counting({"a": []})
    table_cache.cached("t", b"one", build, _fits)
    table_cache.cached("t", b"two", build, _fits)
    assert built == [1, 1]


@pytest.mark.parametrize("body", [b"", b"\x00garbage", b"\xe9" * 100])
def test_a_torn_or_foreign_file_is_built_again(cache: Path, body: bytes) -> None:
    built, build = _counting({"x": ["y"]})
    table_cache.cached("t", b"source", build, _fits)
    path = next(cache.glob("t-*.marshal"))
    header = path.read_bytes().partition(b"\n")[0] + b"\n"
    path.write_bytes(header + body)
    assert table_cache.cached("t", b"source", build, _fits) == {"x": ["y"]}
    assert built == [1, 1]


def test_a_value_of_the_wrong_shape_is_built_again(cache: Path) -> None:
    built, build = _counting(["not", "a", "dict"])
    table_cache.cached("t", b"source", build, _fits)  # written, but fits() refuses it
    assert table_cache.cached("t", b"source", build, _fits) == ["not", "a", "dict"]
    assert built == [1, 1]


@pytest.mark.posix_only("file modes and owners")
def test_a_file_others_can_write_is_not_read(cache: Path) -> None:
    built, build = _counting({"x": ["y"]})
    table_cache.cached("t", b"source", build, _fits)
    path = next(cache.glob("t-*.marshal"))
    os.chmod(path, 0o666)
    table_cache.cached("t", b"source", build, _fits)
    assert built == [1, 1]


def test_an_unwritable_cache_still_gives_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("SBCTUNE_CACHE_DIR", str(blocker))
    built, build = _counting({"x": ["y"]})
    assert table_cache.cached("t", b"source", build, _fits) == {"x": ["y"]}
    assert table_cache.cached("t", b"source", build, _fits) == {"x": ["y"]}
    assert built == [1, 1]  # nothing could be kept: built each time, no error


def test_the_cached_message_index_is_the_index_of_the_shipped_table(cache: Path) -> None:
    raw = resource_root().joinpath("kernel_source", "messages.tsv").read_bytes()
    expected = km.index_rows(raw.decode("utf-8"))
    km.load_messages.cache_clear()
    try:
        built = km.load_messages()  # builds and writes the cache
        km.load_messages.cache_clear()
        read = km.load_messages()  # reads it
    finally:
        km.load_messages.cache_clear()
    assert list(cache.glob("kernel-messages-*.marshal"))
    assert built._by_word == read._by_word == expected
    assert len(read) == sum(map(len, expected.values())) > 20_000
    line = "r8152 2-1:1.0 eth0: Tx timeout"
    found = read.match(line)
    assert found is not None and "drivers/net/usb/r8152.c" in found.files
    assert found == km.MessageTable(raw.decode("utf-8"), {}).match(line)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=st.dictionaries(st.text(max_size=6), _JSON, max_size=5) | st.lists(_JSON, max_size=5))
def test_a_json_table_from_the_cache_is_what_json_gives(cache: Path, value: object) -> None:
    """json_table(): the first load (decoded) and the second (the cache's marshal) give what
    json.loads() gives, key order and float values included."""
    raw = json.dumps(value).encode("utf-8")
    want = json.loads(raw.decode("utf-8"))
    first = table_cache.json_table("prop", raw)
    second = table_cache.json_table("prop", raw)
    assert json.dumps(first) == json.dumps(second) == json.dumps(want)
    assert first == second == want  # no NaN is drawn: equal values are the same values


def test_a_broken_json_table_raises_as_json_does(cache: Path) -> None:
    """A broken file is a ValueError, as json.loads() gives, and nothing is cached."""
    with pytest.raises(ValueError):
        table_cache.json_table("broken", b'{"a": [1, 2')
    with pytest.raises(ValueError):
        table_cache.json_table("broken", b"\xff\xfe not utf-8")
    assert not list(cache.glob("json-broken-*"))


def test_the_shipped_tables_read_through_the_cache_are_the_files(cache: Path) -> None:
    """Every shipped JSON table the inspect path reads through the cache: the cached value (a
    second load, from marshal) equals json.loads() of the file."""
    root = resource_root()
    for folder, name in (
        ("kernel_source", "drivers.json"),
        ("kernel_source", "boards.json"),
        ("kernel_source", "driver_families.json"),
        ("ids", "pci.json"),
        ("ids", "usb.json"),
        ("ids", "drivers.json"),
    ):
        raw = root.joinpath(folder, name).read_bytes()
        table_cache.json_table(f"shipped-{folder}-{name}", raw)
        again = table_cache.json_table(f"shipped-{folder}-{name}", raw)
        assert again == json.loads(raw.decode("utf-8")), name
    assert len(list(cache.glob("json-shipped-*"))) == 6


def test_the_board_table_from_the_cache_reads_no_row_at_start(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The device-tree board table (~2 800 rows) read back from the cache costs no work per
    row at start (issue 24: a bundle's inspect names one board, if any): no row is keyed or
    decoded until a log names its board, and every board answers as from the file itself."""
    from sbctune.catalog import dt_boards

    raw = resource_root().joinpath("kernel_source", "boards.json").read_bytes()
    data = json.loads(raw.decode("utf-8"))
    dt_boards.load_dt_boards.cache_clear()
    keyed: list[str] = []
    real_key = dt_boards._key
    try:
        dt_boards.load_dt_boards()  # builds and writes the cache
        dt_boards.load_dt_boards.cache_clear()
        monkeypatch.setattr(dt_boards, "_key", lambda model: keyed.append(model) or real_key(model))
        read = dt_boards.load_dt_boards()  # reads it
        assert keyed == []
        monkeypatch.setattr(dt_boards, "_key", real_key)
        whole = dt_boards.DtBoards(data)
        model, compatible = data["columns"].index("model"), data["columns"].index("compatible")
        assert len(read) == len(whole) == len(data["boards"]) > 2_000
        named = 0
        for row in data["boards"]:
            assert read.by_model(row[model]) == whole.by_model(row[model])
            named += read.by_model(row[model]) is not None
            assert read.by_compatible(row[compatible][0]) == whole.by_compatible(row[compatible][0])
            assert read.soc_named_in(row[model]) == whole.soc_named_in(row[model])
        assert named > 2_000  # (a model that boards of two SoCs share names none)
    finally:
        dt_boards.load_dt_boards.cache_clear()


def _builder_module(folder: Path, name: str, value: str) -> Any:
    """A module whose build() gives `value`, imported from its own file."""
    import importlib.util

    path = folder / f"{name}.py"
    path.write_text(f"def build():\n    return {{'v': {value!r}}}\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_a_table_built_by_older_code_is_built_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The builder's code changed (an upgrade, an edit) but not the source: the table is built
    by the new code, not read back from what the old one kept (before, the cache was named by
    the source alone and the old table was read)."""
    monkeypatch.setattr(sys, "modules", dict(sys.modules))  # the builders' modules go after
    old = _builder_module(tmp_path, "builder_v", "old")
    assert table_cache.cached("t", b"source", old.build, _fits) == {"v": "old"}
    assert table_cache.cached("t", b"source", old.build, _fits) == {"v": "old"}
    new = _builder_module(tmp_path, "builder_v", "new, longer")
    os.utime(tmp_path / "builder_v.py", ns=(1, 1))  # a new file, whatever the clock says
    assert table_cache.cached("t", b"source", new.build, _fits) == {"v": "new, longer"}
    assert table_cache.cached("t", b"source", new.build, _fits) == {"v": "new, longer"}
    assert len(list(cache.glob("t-*.marshal"))) == 2  # one per code version, both kept


def test_the_code_version_is_the_builder_module_file(tmp_path: Path) -> None:
    assert table_cache.code_version(km.packed_rows) == table_cache.code_version(km.load_messages)
    assert table_cache.code_version(km.packed_rows) != table_cache.code_version(_fits)
    assert table_cache.code_version(len) == "none"  # a built-in: no file to name it


def test_the_cached_tables_equal_the_files_they_come_from(cache: Path) -> None:
    """The probe exits and the format tables read through the cache (first built, then read
    back) are what the files give (driver_caps.json: test_driver_caps_from_the_cache_...)."""
    from sbctune.catalog import probe_exits

    root = resource_root()
    raw = json.loads(root.joinpath("kernel_source", "probe_exits.json").read_text(encoding="utf-8"))
    rows = km.index_rows("\n".join(str(r) for r in raw["rows"]))
    formats = {
        name: km.index_rows(root.joinpath("kernel_source", name).read_text(encoding="utf-8"))
        for name in ("netdev_info_formats.tsv", "of_node_formats.tsv")
    }
    for _ in range(2):  # built, then read back from the cache
        for clear in (probe_exits._table, km.load_format_table):
            clear.cache_clear()
        try:
            table, probes, _drivers = probe_exits._table()
            assert table._by_word == rows and len(rows) > 100
            assert probes == {k: frozenset(v) for k, v in raw["probes"].items()}
            for name, want in formats.items():
                assert km.load_format_table(name)._by_word == want
        finally:
            for clear in (probe_exits._table, km.load_format_table):
                clear.cache_clear()
    assert len(list(cache.glob("probe-exits-*.marshal"))) == 1
    assert len(list(cache.glob("kernel-formats-*.marshal"))) == 2


def _old_file(path: Path, data: bytes, mtime_ns: int) -> None:
    """`data` in `path` with a modification time long past (a settled file, as shipped)."""
    path.write_bytes(data)
    os.utime(path, ns=(mtime_ns, mtime_ns))


# Windows keeps no stat stamps (test_windows_keeps_no_stamps_and_hashes_at_every_run)
STAT_STAMPS = pytest.mark.posix_only("stat stamps are kept only where st_ctime is a change time")


def _settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file's ctime is the write's own (no utime can set it): call it settled at once."""
    monkeypatch.setattr(table_cache, "_SETTLED_NS", -(10**18))


@STAT_STAMPS
def test_a_file_table_changed_with_its_size_is_built_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table read from a file: same bytes and stat → read back, neither the file read nor
    hashed; new bytes of the same size and a new mtime → built from the new bytes; the old
    bytes back (new stat, same digest) → the table they built is read back, not built."""
    _settled(monkeypatch)
    source = tmp_path / "table.txt"
    _old_file(source, b"alpha", 1_000_000_000)
    builds: list[bytes] = []

    def build(raw: bytes) -> dict[str, str]:
        builds.append(raw)
        return {"v": raw.decode()}

    assert table_cache.cached_file("f", source, build, _fits) == {"v": "alpha"}
    reads: list[int] = []
    real_sha = table_cache.sha256_hex

    def counting_sha(data: bytes = b"") -> Any:
        reads.append(len(data))
        return real_sha(data)

    monkeypatch.setattr(table_cache, "sha256_hex", counting_sha)
    assert table_cache.cached_file("f", source, build, _fits) == {"v": "alpha"}
    assert builds == [b"alpha"] and 5 not in reads  # the stamp said: the source not hashed
    _old_file(source, b"omega", 2_000_000_000)  # same size, another mtime
    assert table_cache.cached_file("f", source, build, _fits) == {"v": "omega"}
    _old_file(source, b"alpha", 3_000_000_000)  # the first bytes again, a new stat
    assert table_cache.cached_file("f", source, build, _fits) == {"v": "alpha"}
    assert builds == [b"alpha", b"omega"]  # the first table read back by its digest


@STAT_STAMPS
def test_a_file_changed_with_its_mtime_restored_is_built_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same size, mtime set back to the old one (touch -r, a copy keeping times): the ctime
    and inode still differ, so the file is hashed again (a .pyc would miss this one)."""
    _settled(monkeypatch)
    source = tmp_path / "table.txt"
    _old_file(source, b"alpha", 1_000_000_000)
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits) == {
        "v": "alpha"
    }
    source.unlink()
    _old_file(source, b"omega", 1_000_000_000)
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits) == {
        "v": "omega"
    }


def test_a_file_changed_just_now_gets_no_stamp(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file written in the last seconds could change again within its clock tick with the
    same stat (git's racy case): it is hashed at every read until it settles."""
    source = tmp_path / "table.txt"
    source.write_bytes(b"alpha")
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits)
    assert not list(cache.glob("f-*.stamp"))
    source.write_bytes(b"omega")  # same size, maybe the same mtime on a coarse clock
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits) == {
        "v": "omega"
    }


def test_windows_keeps_no_stamps_and_hashes_at_every_run(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows' st_ctime is a creation time (the rehearsal's Windows lane: a file re-created with
    its mtime set back kept its whole stat, and the old table came back): no stamp there, each
    run reads and hashes the file, so a change of any kind is seen."""
    assert table_cache.stat_witnesses_changes("posix")
    assert not table_cache.stat_witnesses_changes("nt")
    _settled(monkeypatch)
    monkeypatch.setattr(table_cache, "_STAMPS", table_cache.stat_witnesses_changes("nt"))
    source = tmp_path / "table.txt"
    _old_file(source, b"alpha", 1_000_000_000)
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits)
    assert not list(cache.glob("f-*.stamp"))
    source.unlink()
    _old_file(source, b"omega", 1_000_000_000)  # the same size and mtime: only the bytes tell
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits) == {
        "v": "omega"
    }


def test_a_frozen_app_hashes_its_sources(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frozen app (PyInstaller) unpacks its resources with its own times: no stamp is kept
    nor read there, each run hashes the file as `cached` does."""
    _settled(monkeypatch)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    source = tmp_path / "table.txt"
    _old_file(source, b"alpha", 1_000_000_000)
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits)
    assert not list(cache.glob("f-*.stamp"))
    assert len(list(cache.glob("f-*.marshal"))) == 1


@STAT_STAMPS
def test_a_stamp_others_can_write_is_not_read(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stamp file that is not private (or is torn) is not trusted: the source is hashed."""
    _settled(monkeypatch)
    source = tmp_path / "table.txt"
    _old_file(source, b"alpha", 1_000_000_000)
    table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits)
    stamp = next(cache.glob("f-*.stamp"))
    # a stamp that names another digest for this stat: followed only if it is trusted
    kept = stamp.read_text(encoding="utf-8")
    stamp.write_text(kept[:-64] + "0" * 64, encoding="utf-8")
    if hasattr(os, "getuid"):
        stamp.chmod(0o666)
        assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits) == {
            "v": "alpha"
        }
    stamp.write_text(kept[:10], encoding="utf-8")  # torn
    assert table_cache.cached_file("f", source, lambda raw: {"v": raw.decode()}, _fits) == {
        "v": "alpha"
    }


def test_driver_caps_from_the_cache_is_the_file(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """driver_caps.json (1.8 MB, read by every inspect) through the cache: the value is what
    json.loads() gives of the file, and a second process (the lru cache cleared) decodes no
    JSON (+51 M instructions against json's +81 M, now that a settled file is not hashed at
    every run; session 25 measured it before the stamps, when hashing made it not pay)."""
    from sbctune.tuning import driver_caps

    path = resource_root().joinpath("tuning", "driver_caps.json")
    want = json.loads(path.read_text(encoding="utf-8"))

    def no_json(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("driver_caps.json decoded again")

    driver_caps.table.cache_clear()
    try:
        assert driver_caps.table() == want  # built: json.loads of the file
        driver_caps.table.cache_clear()
        with monkeypatch.context() as patch:
            patch.setattr(json, "loads", no_json)
            assert driver_caps.table() == want
    finally:
        driver_caps.table.cache_clear()
    assert len(list(cache.glob("json-driver-caps-*.marshal"))) == 1


class _Str(str):
    """A str subclass: not the exact str a cached index holds."""


_PACKED_PARTS = st.sampled_from(["w", "x\x00row", "\x00", "", 1, b"\x00", None, _Str("a\x00b")])


@given(st.dictionaries(_PACKED_PARTS, _PACKED_PARTS, max_size=5) | st.lists(st.text(), max_size=2))
def test_is_packed_read_in_c_is_the_plain_test(value: object) -> None:
    """kernel_messages.is_packed (every cached format index's check at load, in C) says what
    the generator over its items said."""
    plain = isinstance(value, dict) and all(
        type(k) is str and type(v) is str and km._NEEDLE_END in v for k, v in value.items()
    )
    assert km.is_packed(value) == plain


def test_driver_caps_rows_are_decoded_when_first_read(cache: Path) -> None:
    """driver_caps.json's "drivers" (229 drivers, ~80 % of the cached table) read back from the
    cache decode no driver until one is asked for (a bundle names a few: issue 24, the fixed
    cost of every inspect); each row, its names, `in`, `get` and `items()` read as the file's,
    and a row asked again is the same object (decoded once). Before, the whole map was built
    at every load."""
    from sbctune.tuning import driver_caps

    path = resource_root().joinpath("tuning", "driver_caps.json")
    want = json.loads(path.read_text(encoding="utf-8"))
    driver_caps.table.cache_clear()
    try:
        driver_caps.table()  # built, and written to the cache
        driver_caps.table.cache_clear()
        drivers = driver_caps.table()["drivers"]  # read back
        assert drivers.read() == 0  # type: ignore[attr-defined]
        assert list(drivers) == list(want["drivers"]) and len(drivers) == len(want["drivers"])
        caps = driver_caps.caps("r8152", "6.12.25+rpt-rpi-v8")
        assert caps is not None and caps.driver == "r8152"
        assert drivers.read() == 1  # type: ignore[attr-defined]
        assert drivers["r8152"] is drivers["r8152"] == want["drivers"]["r8152"]
        assert "nonesuch" not in drivers and drivers.get("nonesuch") is None
        with pytest.raises(KeyError):
            drivers["nonesuch"]
        assert dict(drivers.items()) == want["drivers"] and drivers == want["drivers"]
        assert driver_caps.table() == want
    finally:
        driver_caps.table.cache_clear()


@pytest.mark.parametrize("value", [[1, 2], {"drivers": [1]}, {"drivers": {"a": 1}}, {"x": 1}])
def test_a_lazy_rows_table_of_another_shape_reads_as_json_gives_it(
    cache: Path, tmp_path: Path, value: object
) -> None:
    """A table whose rows map is missing or not a map of rows reads as json.loads() gives it,
    from the file and again from the cache."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    os.utime(path, ns=(1, 1))  # settled: its stat is stamped
    for _ in range(2):
        got = table_cache.json_file("t", path, rows=("drivers",))
        assert got == value


@given(st.binary(max_size=600) | st.sampled_from([b"x" * n for n in (2**18 - 1, 2**18, 2**18 + 1)]))
def test_sha256_hex_is_the_sha256_whichever_module_hashes(data: bytes) -> None:
    """CPython's own SHA-256 for small data, hashlib's (OpenSSL) above 256 kB: the digest, and
    so every cache file's name, is the same either way."""
    import hashlib

    assert table_cache.sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_without_its_own_sha256_module_hashlib_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python or a frozen app without _sha256/_sha2: hashlib's digest, the same."""
    import hashlib

    monkeypatch.setattr(table_cache, "_own_sha256", lambda: None)
    assert table_cache.sha256_hex(b"catalog") == hashlib.sha256(b"catalog").hexdigest()
