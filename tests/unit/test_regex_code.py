"""The command line's kept regex code (cli/regex_code.py, issue 24 speed): a pattern made from
the cache is the pattern re.compile makes (same flags, text and engine code: Pattern.__eq__),
matches the same, and anything odd falls back to the plain compile."""

from __future__ import annotations

import marshal
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.cli import regex_code
from sbctune.cli.kept_marshal import read_kept

_plain_compile = re._compiler.compile  # type: ignore[attr-defined]


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SBCTUNE_CACHE_DIR", str(tmp_path))
    return tmp_path / "tables"


def _kept_file(cache: Path) -> Path:
    found = list(cache.glob("regex-code-*"))
    assert len(found) == 1
    return found[0]


# pieces of the patterns the parsers use: groups (named, too), classes, repeats, lookarounds,
# alternations, anchors, backreferences, inline flags
_PIECE = st.sampled_from(
    [
        r"\d+", r"[\w.-]+", r"(\d+)\.(\d+)", r"(?P<drv>[a-z_]\w*)", r"(?:eth|wlan)\d",
        r"\s*", r"^", r"$", r"\b", r"(?=\s)", r"(?<=[\s>])", r"(?!x)", r"a|b", r"[^;]{0,40}",
        r"(?i:link)", r"\[", r"\]", r"x{2,5}?", r".*", r"(a)\1", r"[\u3000-\u303f]", r"é",
        r"\x00", r"(?:usb|pci)", r"\w+@\S+", r"\.",
    ]
)  # fmt: skip
_PATTERN = st.lists(_PIECE, min_size=1, max_size=6).map("".join)
_FLAGS = st.sampled_from([0, re.I, re.M, re.S, re.I | re.M, re.X, re.A])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pattern=_PATTERN, flags=_FLAGS, text=st.text(max_size=40))
def test_a_pattern_from_the_kept_code_is_the_plain_pattern(
    cache: Path, pattern: str, flags: int, text: str
) -> None:
    """First run (compiled and recorded) and second run (read from the file) both give the
    pattern re's own compiler gives, and it finds the same in any text."""
    try:
        plain = _plain_compile(pattern, flags)
    except re.error:
        return  # not a pattern (a backreference before its group): nothing to compare
    with regex_code.regex_code_kept(own_process=True):
        first = re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
    with regex_code.regex_code_kept(own_process=True):
        second = re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
    for made in (first, second):
        assert made == plain  # flags, text and the engine's code
        assert made.groupindex == plain.groupindex
        assert made.groups == plain.groups
        found, expected = made.search(text), plain.search(text)
        assert (found and (found.span(), found.groups())) == (
            expected and (expected.span(), expected.groups())
        )
    assert re._compiler.compile is _plain_compile  # type: ignore[attr-defined]


def test_the_second_run_parses_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = r"^\[\s*(\d+\.\d+)\]\s*(?P<msg>.*)zq"
    with regex_code.regex_code_kept(own_process=True):
        re._compiler.compile(pattern, re.S)  # type: ignore[attr-defined]
    parsed: list[Any] = []
    real = re._parser.parse  # type: ignore[attr-defined]

    def counting(*args: Any, **kwargs: Any) -> Any:
        parsed.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(re._parser, "parse", counting)  # type: ignore[attr-defined]
    with regex_code.regex_code_kept(own_process=True):
        made = re._compiler.compile(pattern, re.S)  # type: ignore[attr-defined]
    assert parsed == []
    found = made.match("[  12.345678] r8152 2-1:1.0 eth1: carrier onzq")
    assert found is not None and found.group("msg") == "r8152 2-1:1.0 eth1: carrier on"


def test_bytes_and_debug_patterns_compile_as_before(cache: Path) -> None:
    with regex_code.regex_code_kept(own_process=True):
        made = re._compiler.compile(rb"\d+x", 0)  # type: ignore[attr-defined]
    assert made.match(b"12x")
    assert not cache.exists()  # nothing of it kept


def test_a_test_calling_main_leaves_re_alone(cache: Path) -> None:
    with regex_code.regex_code_kept(own_process=False):
        assert re._compiler.compile is _plain_compile  # type: ignore[attr-defined]
        re._compiler.compile(r"a+b+c+q", 0)  # type: ignore[attr-defined]
    assert not cache.exists()


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9\x00\x00", b"{\x00\x00\x00\x00"])
def test_a_broken_file_compiles_as_before(cache: Path, content: bytes) -> None:
    with regex_code.regex_code_kept(own_process=True):
        re._compiler.compile(r"(\w+) (\d+)y", 0)  # type: ignore[attr-defined]
    path = _kept_file(cache)
    path.write_bytes(content)
    os.chmod(path, 0o600)
    with regex_code.regex_code_kept(own_process=True):
        made = re._compiler.compile(r"(\w+) (\d+)y", 0)  # type: ignore[attr-defined]
    assert made == _plain_compile(r"(\w+) (\d+)y", 0)
    assert made.match("eth 0y")


def test_wrong_code_in_the_file_is_refused_by_the_engine(cache: Path) -> None:
    """A file of the right shape with code the engine does not accept raises, as a broken
    pattern would, rather than running it (the engine checks the code it is given)."""
    with regex_code.regex_code_kept(own_process=True):
        re._compiler.compile(r"ab+c", 0)  # type: ignore[attr-defined]
    known = regex_code._valid(read_kept(_kept_file(cache)))
    key = (r"ab+c", 0)
    entry = regex_code._entry(known[key])
    assert entry is not None
    final, _code, groups, names, index = entry
    with pytest.raises(RuntimeError):
        regex_code.kept_compile(
            {key: marshal.dumps((final, [99999, 1, 2], groups, names, index))},
            {},
            _plain_compile,
            re._parser,  # type: ignore[attr-defined]
            re._compiler,  # type: ignore[attr-defined]
            re._compiler._sre,  # type: ignore[attr-defined]
        )(r"ab+c", 0)


@pytest.mark.posix_only("file owner and mode bits")
def test_a_file_others_can_write_is_not_read(cache: Path) -> None:
    with regex_code.regex_code_kept(own_process=True):
        re._compiler.compile(r"q+r+", 0)  # type: ignore[attr-defined]
    path = _kept_file(cache)
    os.chmod(path, 0o666)
    assert read_kept(path) is None
    os.chmod(path, 0o600)
    assert regex_code._valid(read_kept(path))


def test_the_file_stays_bounded(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regex_code, "_LIMIT", 2)
    with regex_code.regex_code_kept(own_process=True):
        for n in range(4):
            re._compiler.compile(f"old{n}+", 0)  # type: ignore[attr-defined]
    with regex_code.regex_code_kept(own_process=True):
        re._compiler.compile("new+", 0)  # type: ignore[attr-defined]
    kept = regex_code._valid(read_kept(_kept_file(cache)))
    assert len(kept) == 2
    assert ("new+", 0) in kept  # this run's own first


def test_parts_that_do_not_remake_the_pattern_are_not_kept(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another Python's compiler (or a wrong reading of it) makes other parts: the pattern re
    compiled is used, and nothing is kept that would make another one next time."""
    real = regex_code._parts

    def other_flags(p: str, flags: int, parser: Any, compiler: Any) -> Any:
        final, code, groups, names, index = real(p, flags, parser, compiler)
        return (final | int(re.I), code, groups, names, index)

    monkeypatch.setattr(regex_code, "_parts", other_flags)
    with regex_code.regex_code_kept(own_process=True):
        made = re._compiler.compile(r"Link is (Up|Down)w", 0)  # type: ignore[attr-defined]
    assert made == _plain_compile(r"Link is (Up|Down)w", 0)
    assert not made.match("link is upw")
    assert not list(cache.glob("regex-code-*"))  # nothing recorded, nothing written


def test_a_kept_pattern_is_decoded_only_when_compiled(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file holds each pattern's code on its own: a run decodes the entries of the
    patterns it compiles, not all of them (issue 24: ~750 kept, a small inspect uses ~170;
    before, the whole file was decoded and checked at every start)."""
    texts = [f"kept{n}+x" for n in range(5)]
    with regex_code.regex_code_kept(own_process=True):
        for text in texts:
            re._compiler.compile(text, 0)  # type: ignore[attr-defined]
    decoded: list[bytes] = []
    real = regex_code._entry

    def counted(packed: bytes) -> Any:
        decoded.append(packed)
        return real(packed)

    monkeypatch.setattr(regex_code, "_entry", counted)
    with regex_code.regex_code_kept(own_process=True):
        made = re._compiler.compile(texts[2], 0)  # type: ignore[attr-defined]
    assert made == _plain_compile(texts[2], 0)
    assert len(decoded) == 1


def test_a_torn_entry_compiles_as_before_and_is_kept_again(cache: Path) -> None:
    import marshal

    with regex_code.regex_code_kept(own_process=True):
        re._compiler.compile(r"torn(\d+)", 0)  # type: ignore[attr-defined]
    path = _kept_file(cache)
    known = regex_code._valid(read_kept(path))
    known[(r"torn(\d+)", 0)] = b"\xff not marshal"
    path.write_bytes(marshal.dumps(known))
    os.chmod(path, 0o600)
    with regex_code.regex_code_kept(own_process=True):
        made = re._compiler.compile(r"torn(\d+)", 0)  # type: ignore[attr-defined]
    assert made == _plain_compile(r"torn(\d+)", 0) and made.match("torn42")
    again = regex_code._valid(read_kept(path))
    assert regex_code._entry(again[(r"torn(\d+)", 0)]) is not None
