"""sbctune.textsafe, unit by unit: which code points are escaped (by Unicode category, edges
included), which pass unchanged, the escape's form, the guarded stream and the Markdown and CSV
escapes. Fast on purpose: scripts/mutation.py runs these once per mutant of the module."""

from __future__ import annotations

import io
import json
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune import textsafe
from sbctune.textsafe import (
    csv_cell,
    guard_terminal,
    is_clean,
    is_unsafe_char,
    markdown_text,
    safe_stream,
    visible,
)

HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# One or more per category and at each edge of a former hand-written range.
ESCAPED = {
    "\x00": "\\u0000", "\x08": "\\u0008", "\x0b": "\\u000b", "\x0c": "\\u000c",
    "\x1b": "\\u001b", "\x1f": "\\u001f", "\x7f": "\\u007f", "\x80": "\\u0080",
    "\x9b": "\\u009b", "\x9f": "\\u009f", "\r": "\\u000d",
    "\u00ad": "\\u00ad",  # soft hyphen (Cf)
    "\u061c": "\\u061c", "\u180e": "\\u180e",  # Arabic letter mark, Mongolian vowel separator
    "\u200b": "\\u200b", "\u200f": "\\u200f", "\u2028": "\\u2028", "\u2029": "\\u2029",
    "\u202a": "\\u202a", "\u202e": "\\u202e", "\u2060": "\\u2060", "\u2064": "\\u2064",
    "\u2066": "\\u2066", "\u2069": "\\u2069", "\u206f": "\\u206f", "\ufeff": "\\ufeff",
    "\ufff9": "\\ufff9", "\ufffb": "\\ufffb",
    "\ue000": "\\ue000", "\uf8ff": "\\uf8ff",  # private use (Co)
    "\u0378": "\\u0378",  # unassigned (Cn)
    "\ud800": "\\ud800",  # a lone surrogate (Cs), as surrogateescape leaves them
    "\u3164": "\\u3164", "\u115f": "\\u115f",  # Hangul fillers: letters that draw nothing
    "\U000e0001": "\\udb40\\udc01", "\U000e0041": "\\udb40\\udc41",  # tags (ASCII smuggling)
    "\U000e007f": "\\udb40\\udc7f", "\U00013430": "\\ud80d\\udc30",
    "\U00013438": "\\ud80d\\udc38", "\U0001d173": "\\ud834\\udd73",
    "\U000e0100": "\\udb40\\udd00",  # variation selector 17: hides bytes after a character
    "\U000f0000": "\\udb80\\udc00",  # supplementary private use
}  # fmt: skip
# Ordinary text of many scripts, with marks, emoji and their variation selector 16.
ORDINARY = (
    "naïve café Ünïcödé ÆØÅ ß · Ελληνικά · Кириллица · עברית · العربية · हिन्दी · 日本語 · "
    "한국어 · e\u0301 · \u00a0non-breaking · ❤\ufe0f 😀 👍🏽 · ½ ° € ™ · tab\there\nnext line"
)


@pytest.mark.parametrize("char", sorted(ESCAPED))
def test_every_hidden_or_acting_code_point_is_escaped(char: str) -> None:
    assert visible(f"a{char}b") == f"a{ESCAPED[char]}b"
    assert is_unsafe_char(char) or char == "\r"
    assert not is_clean(f"a{char}b")


def test_ordinary_text_of_any_script_passes_unchanged() -> None:
    assert visible(ORDINARY) == ORDINARY
    assert is_clean(ORDINARY)
    assert not any(is_unsafe_char(c) for c in ORDINARY)


def test_tab_and_newline_stay_and_a_windows_line_end_is_a_line_end() -> None:
    assert visible("a\tb\nc\r\nd") == "a\tb\nc\nd"
    assert visible("a\rb") == "a\\u000db"  # a lone CR would overwrite the line: shown
    assert visible("") == "" and is_clean("")


def test_escapes_read_back_as_the_same_text_inside_json() -> None:
    text = "".join(ESCAPED) + ORDINARY
    assert json.loads(f'"{visible(text)}"'.replace("\n", "\\n").replace("\t", "\\t")) == text


def test_variation_selectors_1_to_16_shape_text_and_stay() -> None:
    assert visible("\ufe00\ufe0f") == "\ufe00\ufe0f"
    assert visible("\U000e01ef") == "\\udb40\\uddef"  # selector 256


def test_many_distinct_code_points_stay_right_past_the_table_bound() -> None:
    letters = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 20_000))  # CJK ideographs
    tags = "".join(chr(c) for c in range(0xE0020, 0xE0080))
    assert visible(letters) == letters
    text = "".join(chr(c) for c in range(0x10000, 0x10000 + 70_000)) + tags
    shown = visible(text)
    assert "\U000e0041" not in shown and "\\udb40\\udc41" in shown
    assert len(textsafe._TABLE) <= textsafe._TABLE_MAX


def test_the_stream_writes_through_visible_and_counts_the_callers_text() -> None:
    raw = io.StringIO()
    stream = safe_stream(raw)
    assert stream.write("x\x1b[2J") == 5  # print() counts what it gave
    stream.writelines(["\x07", "y\n"])
    assert raw.getvalue() == "x\\u001b[2J\\u0007y\n"
    assert safe_stream(stream) is stream  # guarded once, not twice
    assert stream.wrapped is raw  # type: ignore[attr-defined]
    assert stream.getvalue() == raw.getvalue()  # type: ignore[attr-defined]


def test_the_guard_restores_the_streams_even_on_an_error() -> None:
    before = sys.stdout, sys.stderr
    with pytest.raises(RuntimeError), guard_terminal():
        assert sys.stdout is not before[0] and sys.stderr is not before[1]
        raise RuntimeError
    assert (sys.stdout, sys.stderr) == before


def test_the_guard_leaves_a_missing_stream_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    with guard_terminal():
        assert sys.stdout is None and sys.stderr is not None


def test_markdown_escapes_markup_entities_and_syntax() -> None:
    assert markdown_text("a & b") == "a &amp; b"
    assert markdown_text("<img>") == "&lt;img&gt;"  # the & of &lt; is not escaped again
    assert markdown_text("&lt;") == "&amp;lt;"
    for char in "\\`*_[]|~":
        assert markdown_text(f"a{char}b") == f"a\\{char}b"
    assert markdown_text("a\nb\r\nc") == "a b c"  # one line
    assert markdown_text(None) == "None" and markdown_text(12) == "12"
    assert markdown_text("x\x1b") == "x\\\\u001b"  # the escape's backslash is literal too


@pytest.mark.parametrize(
    ("text", "start"),
    [("# h", "\\# h"), ("+ a", "\\+ a"), ("- a", "\\- a"), ("= a", "\\= a"), ("1. a", "1\\. a"),
     ("2) a", "2\\) a"), ("  - a", "  \\- a"), ("a - b", "a - b"), ("940.5", "940\\.5")],
)  # fmt: skip
def test_markdown_block_markers_are_escaped_only_at_a_line_start(text: str, start: str) -> None:
    assert markdown_text(text, line_start=True) == start
    assert markdown_text(text) == text  # inside a line: as it is


@pytest.mark.parametrize(
    ("text", "cell"),
    [("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("-cmd", "'-cmd"), ("@SUM(A1)", "'@SUM(A1)"),
     ("\tx", "'\tx"), ("-", "'-"), ("-1-1", "'-1-1"), ("--5", "'--5"), ("-12.5", "-12.5"),
     ("+3", "+3"), ("-.5", "-.5"), ("1e5", "1e5"), ("-2E-3", "-2E-3"), ("5.", "5."),
     ("eth1", "eth1"), ("", ""), ("a=b", "a=b"), ("\rx", "\\u000dx"), ("=\x1b", "'=\\u001b")],
)  # fmt: skip
def test_csv_cells_never_start_a_formula_but_numbers_stay(text: str, cell: str) -> None:
    assert csv_cell(text) == cell


def test_the_table_remembers_what_it_decided_up_to_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = textsafe._EscapeTable()
    assert "x\x1b".translate(table) == "x\\u001b"
    assert table == {ord("x"): ord("x"), 0x1B: "\\u001b"}
    monkeypatch.setattr(textsafe, "_TABLE_MAX", 2)
    assert "ab\x07\u202e".translate(table) == "ab\\u0007\\u202e"  # decided, not remembered
    assert len(table) == 2


@given(st.text(alphabet=st.characters(codec=None)))
def test_any_text_comes_out_clean_and_stays_so(text: str) -> None:
    shown = visible(text)
    assert not [c for c in shown if c not in "\t\n" and unicodedata.category(c) in HIDDEN]
    assert visible(shown) == shown and is_clean(shown)
