"""sbctune.limits, unit by unit: sizes in words, which outputs keep their end, which bytes a
cut keeps (Capped, cap, TailBuffer), the JSON depth count and load_json's limits at their
edges. Fast on purpose: scripts/mutation.py runs these once per mutant of the module."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune import limits
from sbctune.limits import (
    MAX_JSON_DEPTH,
    MAX_MANIFEST_BYTES,
    Capped,
    JsonTooDeep,
    LimitError,
    MiB,
    TailBuffer,
    cap,
    json_depth,
    keeps_tail,
    load_json,
    parse_json,
    size_text,
)


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KiB"), (1536, "2 KiB"),
     (MiB - 1, "1024 KiB"), (MiB, "1.0 MiB"), (16 * MiB, "16.0 MiB"),
     (1024 * MiB - 1, "1024.0 MiB"), (1024 * MiB, "1.0 GiB"), (3 * 1024 * MiB // 2, "1.5 GiB")],
)  # fmt: skip
def test_size_text(size: int, text: str) -> None:
    assert size_text(size) == text


@pytest.mark.parametrize(
    ("name", "tail"),
    [("dmesg", True), ("sudo dmesg", True), ("  dmesg -T", True), ("journalctl -k", True),
     ("logread", True), ("sudo  journalctl", True), ("dmesgx", False), ("lsusb", False),
     ("cat dmesg", False), ("/var/log/dmesg", False), ("", False)],
)  # fmt: skip
def test_logs_keep_their_end(name: str, tail: bool) -> None:
    assert keeps_tail(name) is tail


def test_the_warning_names_the_output_the_limit_and_the_part_kept() -> None:
    cut = Capped(b"x" * 2048, True, 5 * MiB)
    assert cut.warning("dmesg", 2048) == (
        "dmesg: the output of 5.0 MiB is larger than the 2 KiB sbctune reads;"
        " only its last 2 KiB were used"
    )
    assert Capped(b"abc", True).warning("lsusb -v") == (
        "lsusb -v: the output is larger than the 16.0 MiB sbctune reads;"
        " only its first 3 bytes were used"
    )


def test_cap_keeps_the_head_or_for_a_log_the_tail() -> None:
    data = bytes(range(10))
    assert cap(data, "lsusb", 10) == Capped(data, False, 10)
    assert cap(data, "lsusb", 4) == Capped(data[:4], True, 10)
    assert cap(data, "dmesg", 4) == Capped(data[-4:], True, 10)
    assert cap(data, "dmesg", 11) == Capped(data, False, 10)


@pytest.mark.parametrize("chunk", [1, 3, 4, 7, 100])
def test_the_tail_buffer_keeps_exactly_the_last_bytes(chunk: int) -> None:
    data = bytes(i % 251 for i in range(100))
    tail = TailBuffer(8)
    for start in range(0, len(data), chunk):
        tail.add(data[start : start + chunk])
        assert len(tail._buf) <= 2 * 8 + chunk  # bounded, whatever the stream's length
    assert tail.result() == Capped(data[-8:], True, 100)
    assert tail.seen == 100


def test_the_tail_buffer_at_and_under_its_limit_is_not_cut() -> None:
    tail = TailBuffer(4)
    tail.add(b"ab")
    assert tail.result() == Capped(b"ab", False, 2)
    tail.add(b"cd")
    assert tail.result() == Capped(b"abcd", False, 4)
    tail.add(b"e")
    assert tail.result() == Capped(b"bcde", True, 5)
    empty = TailBuffer(0)
    empty.add(b"xyz")
    assert empty.result() == Capped(b"", True, 3)


def test_the_tail_buffer_trims_only_past_twice_its_limit() -> None:
    tail = TailBuffer(4)
    tail.add(b"12345678")  # exactly twice: kept as it is until more comes
    assert bytes(tail._buf) == b"12345678"
    tail.add(b"9")
    assert bytes(tail._buf) == b"6789"


@pytest.mark.parametrize(
    ("text", "depth"),
    [(b"", 0), (b"1", 0), (b"{}", 1), (b"[[]]", 2), (b'{"a": [1, {"b": []}]}', 4),
     (b"[" + b"{}," * 500 + b"{}]", 2),  # many shallow objects: depth 2, not 501
     (b'{"a": "]]]}}}[[[{{{"}', 1), (b'["\\"[[["]', 1), (b'["\\\\", ["x"]]', 2),
     (b'{"a": "[[[', 1), (b'{"a": "x\\', 1), (b"[[[[", 4), (b"]]{", 0)],
)  # fmt: skip
def test_json_depth_counts_brackets_outside_strings(text: bytes, depth: int) -> None:
    assert json_depth(text) == depth


def test_load_json_reads_a_document_at_its_limits() -> None:
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert json.dumps(load_json(deep.encode(), "x")) == deep
    assert load_json(b'{"k": "\xff"}', "x") == {"k": "\ufffd"}  # bad UTF-8: replaced
    exact = b'"' + b"a" * (MAX_MANIFEST_BYTES - 2) + b'"'
    assert len(load_json(exact, "x")) == MAX_MANIFEST_BYTES - 2


def test_load_json_refuses_too_deep_with_the_numbers() -> None:
    deep = b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1)
    with pytest.raises(LimitError) as refused:
        load_json(deep, "the manifest")
    assert refused.value.message == (
        f"the manifest nests {MAX_JSON_DEPTH + 1} levels deep, more than the"
        f" {MAX_JSON_DEPTH} sbctune reads"
    )
    assert "nests 2 levels" in (refused.value.hint or "")


def test_load_json_refuses_too_large_by_the_full_size_when_cut() -> None:
    with pytest.raises(LimitError) as refused:
        load_json(b"{}", "the manifest", size=MAX_MANIFEST_BYTES + 1)
    assert refused.value.message == ("the manifest is 1.0 MiB, more than the 1.0 MiB sbctune reads")
    assert "a few KB" in (refused.value.hint or "")
    with pytest.raises(LimitError, match="is 11 bytes, more than the 10 bytes"):
        load_json(b'"123456789"', "x", max_bytes=10)
    assert load_json(b'"12345678"', "x", max_bytes=10, size=10) == "12345678"
    with pytest.raises(json.JSONDecodeError):
        load_json(b"{", "x")


def limits_table() -> dict[str, str]:
    """README's "Limits" table: what -> limit."""
    text = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    table = text.split("**Limits**", 1)[1].split("\n\n", 2)[1]
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    return {row[0].lstrip("| "): row[1] for row in rows}


def test_the_limits_are_the_ones_the_readme_documents() -> None:
    table = limits_table()
    assert table["one command output over SSH, one bundle member"] == (
        f"{limits.MAX_OUTPUT_BYTES // MiB} MiB"
    )
    assert table["everything one SSH round trip returns"] == f"{limits.MAX_BATCH_BYTES // MiB} MiB"
    assert table["all members of one bundle, as read"] == f"{limits.MAX_BUNDLE_BYTES // MiB} MiB"
    assert table["a bundle's zip"] == (
        f"{limits.MAX_ZIP_MEMBERS} members, {limits.MAX_ZIP_UNCOMPRESSED // MiB} MiB unpacked,"
        f" {limits.MAX_ZIP_RATIO}:1 per member over {limits.ZIP_RATIO_FLOOR // MiB} MiB"
    )
    assert table["`manifest.json`"] == (
        f"{limits.MAX_MANIFEST_BYTES // MiB} MiB, nested {limits.MAX_JSON_DEPTH} deep"
    )
    assert table["interfaces a live `inspect` probes with ethtool"] == (
        str(limits.MAX_PROBED_INTERFACES)
    )
    assert table["interfaces read from one `ip -j` listing"] == str(limits.MAX_INTERFACES)
    assert table["interrupt lines read from `/proc/interrupts`"] == str(limits.MAX_IRQ_LINES)
    for name in ("MAX_OUTPUT_BYTES", "MAX_BATCH_BYTES", "MAX_BUNDLE_BYTES",
                 "MAX_ZIP_UNCOMPRESSED", "MAX_MANIFEST_BYTES", "ZIP_RATIO_FLOOR"):  # fmt: skip
        assert getattr(limits, name) % MiB == 0, name  # whole MiB, as the table says


def test_an_empty_text_under_a_zero_limit_is_parsed_not_refused() -> None:
    with pytest.raises(json.JSONDecodeError):
        load_json(b"", "x", max_bytes=0)


def test_size_text_of_many_gib() -> None:
    assert size_text(100 * 1024 * MiB) == "100.0 GiB"


def test_parse_json_reads_at_its_limits_and_refuses_past_them() -> None:
    deep = "[" * 5 + "]" * 5
    assert parse_json(deep, max_depth=5) == [[[[[]]]]]
    assert parse_json(deep.encode(), max_depth=5) == [[[[[]]]]]
    with pytest.raises(JsonTooDeep) as refused:
        parse_json(deep, "session.json", max_depth=4)
    assert str(refused.value) == "session.json nests 5 levels deep, more than the 4 read"
    assert isinstance(refused.value, ValueError)  # readers that cope with bad JSON cope
    assert parse_json('"12345678"', max_bytes=10) == "12345678"
    with pytest.raises(JsonTooDeep, match="is 11 bytes, more than sbctune reads"):
        parse_json('"123456789"', "x", max_bytes=10)
    assert parse_json("[" * 64 + "]" * 64) is not None  # the default depth: 64
    with pytest.raises(JsonTooDeep, match="nests 65 levels deep"):
        parse_json("[" * 65 + "]" * 65)
    with pytest.raises(json.JSONDecodeError):
        parse_json("{")
