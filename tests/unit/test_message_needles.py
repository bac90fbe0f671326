"""The kernel message table derives a row only when a line holds its needle (issue 24, speed):
what it finds is what the eager reader found (every row of every word a line has split at
once), on the real table, and a row a line cannot match is never split."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.catalog import kernel_messages as km
from sbctune.resources import resource_root

_RAW = resource_root().joinpath("kernel_source", "messages.tsv").read_bytes()
_TEXT = km._text(_RAW)
_BY_WORD = km.index_rows(_TEXT)
_FORMATS = sorted({row.split("\t", 3)[3] for rows in _BY_WORD.values() for row in rows})


def _eager_match(by_word: dict[str, list[str]], head: str) -> km.KernelMessage | None:
    """MessageTable._match as it was before the needles were packed (bcb75921): every row of
    a word the line has split, with its literals and needle, then tried as now."""
    tried = 0
    best: tuple[int, str, str, str, str] | None = None
    for word in dict.fromkeys(km._WORD_RE.findall(head)):
        for row in by_word.get(word, []):
            level, series, files, fmt = row.split("\t", 3)
            literals = km._SPEC_RE.split(fmt)[::2]
            if max(literals, key=len) not in head:
                continue
            tried += 1
            if tried > km._MAX_TRIED:
                break
            if km._bare(fmt, literals) or not km._may_match(literals, head):
                continue
            if km._to_regex(fmt).search(head):
                weight = len(km._SPEC_RE.sub("", fmt))
                if best is None or weight > best[0]:
                    best = (weight, fmt, level, files, series)
        if tried > km._MAX_TRIED:
            break
    if best is None:
        return None
    _weight, fmt, level, files, series = best
    return km.KernelMessage(fmt, level, tuple(files.split(",")), tuple(series.split(",")))


_VALUES = {"d": "-110", "i": "3", "u": "42", "x": "1f", "X": "1F", "c": "x", "s": "eth0"}


def _printed(fmt: str, text: str) -> str:
    """What the kernel prints for a format, each conversion given a plain value."""

    def value(m: re.Match[str]) -> str:
        spec = m.group(1)
        if spec == "%":
            return "%"
        return _VALUES.get(spec, text or "ffff0000") if not spec.startswith("p") else "ab:cd"

    return km._SPEC_RE.sub(value, fmt)


@pytest.fixture(scope="module")
def table() -> km.MessageTable:
    return km.MessageTable(_TEXT, {})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fmt=st.sampled_from(_FORMATS),
    prefix=st.sampled_from(["", "r8152 2-1:1.0 eth0: ", "[   12.345678] usb 1-1: ", "x "]),
    value=st.text(alphabet="abc019 :-", max_size=6),
    tail=st.sampled_from(["", " ", " extra words"]),
)
def test_a_line_of_any_format_is_matched_as_the_eager_reader_did(
    table: km.MessageTable, fmt: str, prefix: str, value: str, tail: str
) -> None:
    head = (prefix + _printed(fmt, value) + tail)[:400]
    assert table.match(head) == _eager_match(_BY_WORD, head)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120) | st.lists(st.sampled_from(list(_BY_WORD)), max_size=8).map(" ".join))
def test_any_text_is_matched_as_the_eager_reader_did(table: km.MessageTable, text: str) -> None:
    """Words of the index in any order (many candidate rows, the 40-row bound) or any text."""
    assert table.match(text) == _eager_match(_BY_WORD, text[:400])


def test_the_real_pastes_match_as_the_eager_reader_did(table: km.MessageTable) -> None:
    """Every distinct line of tests/captures/dmesg (real logs)."""
    root = Path(__file__).resolve().parents[1] / "captures" / "dmesg"
    lines = {
        line[:400]
        for path in sorted(root.glob("*.txt"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
    }
    found = 0
    for line in sorted(lines):
        got = table.match(line)
        assert got == _eager_match(_BY_WORD, line), line
        found += got is not None
    assert found > 900  # 972 of the distinct lines name a format of the table (bcb75921)


def test_a_row_is_split_only_when_a_line_holds_its_needle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before, every row under each word of a line was split with its literals (~9 000 rows
    for the 100 000-line bench log's ~2 400 distinct lines); now only a row whose needle
    the line holds."""
    table = km.MessageTable(_TEXT, {})
    split: list[str] = []
    real = km.MessageTable._row
    monkeypatch.setattr(
        km.MessageTable, "_row", lambda self, row: split.append(row) or real(self, row)
    )
    line = "r8152 2-1:1.0 eth0: Tx timeout"
    assert table.match(line) is not None
    candidates = [
        row for word in dict.fromkeys(km._WORD_RE.findall(line)) for row in _BY_WORD.get(word, [])
    ]
    holding = [
        r for r in candidates if max(km._SPEC_RE.split(r.split("\t", 3)[3])[::2], key=len) in line
    ]
    assert len(candidates) > 10 * len(holding) > 0  # the word "timeout" leads to many rows
    assert sorted(split) == sorted(holding)


@pytest.mark.parametrize(
    "text",
    [
        "timeout\terr\t6.1\tdrivers/a.c\tTx timeout",
        "oddrow\tfewer fields",  # not four fields: split when first tried, as before
        "nulrow\terr\t6.1\tdrivers/a.c\tsay\x00 nul %d",  # a needle holding the separator
    ],
)
def test_rows_without_a_packed_needle_read_as_before(text: str) -> None:
    table = km.MessageTable(text, {})
    eager = km.index_rows(text)
    assert table._by_word == eager
    for line in ("eth0: Tx timeout", "nulrow: say\x00 nul 3", "oddrow fewer fields"):
        try:
            want: object = _eager_match(eager, line)
        except ValueError as exc:  # a row of fewer fields breaks a line that leads to it
            with pytest.raises(type(exc)):
                table.match(line)
        else:
            assert table.match(line) == want
