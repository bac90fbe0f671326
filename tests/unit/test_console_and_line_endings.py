"""What differs between Windows, macOS and Linux in the CLI's output and the exports.

- A console or redirect that cannot hold "→" (Windows cp1252, ASCII) must not end a command.
- Exports are the same bytes on every OS: text files are written with "\\n" line endings
  (Python's text mode would write "\\r\\n" on Windows), except CSV, which RFC 4180 gives CRLF
  through the csv module (newline="").
"""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.cli import tune_status
from sbctune.cli.console import HANDLER, make_console_safe
from sbctune.cli.main import main
from sbctune.tuning.model import LeftoverSession, TweakOutcome

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "resources" / "lab" / "profiles" / "pi4-ax88179"


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_inspect_to_a_narrow_stream_prints_stand_ins(encoding: str) -> None:
    # A real process with the "errors" Windows gives a redirect (not a forced "strict").
    env = dict(os.environ, PYTHONIOENCODING=f"{encoding}:surrogateescape")
    proc = subprocess.run(
        [sys.executable, "-m", "sbctune", "inspect", str(PROFILE)],
        capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr.decode(encoding, "replace")
    text = proc.stdout.decode(encoding)
    assert "Pi->PC" in text  # "Pi→PC" with a readable stand-in
    assert "UnicodeEncodeError" not in proc.stderr.decode(encoding, "replace")


# The streams CPython really opens on Windows (not a forced PYTHONIOENCODING, which makes
# them "strict" and hid the bug): a pipe or file gets the ANSI code page with
# "surrogateescape" (stderr "backslashreplace"); the console gets UTF-8 through the console
# API, or the OEM code page with PYTHONLEGACYWINDOWSSTDIO.
WINDOWS_STREAMS = {
    "pipe or file (cp1252)": ("cp1252", "surrogateescape", "backslashreplace"),
    "console": ("utf-8", "strict", "backslashreplace"),
    "legacy console (cp437)": ("cp437", "strict", "backslashreplace"),
    "legacy console (cp850)": ("cp850", "strict", "backslashreplace"),
    "ascii locale": ("ascii", "strict", "backslashreplace"),
}


class _Streams:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, encoding: str, out_errors: str,
                 err_errors: str) -> None:  # fmt: skip
        self.encoding = encoding
        self.out = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=out_errors)
        self.err = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=err_errors)
        self._monkeypatch = monkeypatch

    def install(self) -> None:
        """In the test itself: pytest's capture puts its own streams back between phases."""
        self._monkeypatch.setattr(sys, "stdout", self.out)
        self._monkeypatch.setattr(sys, "stderr", self.err)

    def text(self, stream: io.TextIOWrapper) -> str:
        stream.flush()
        buffer = stream.buffer
        assert isinstance(buffer, io.BytesIO)
        return buffer.getvalue().decode(self.encoding)  # what a reader of the file sees


@pytest.fixture(params=list(WINDOWS_STREAMS), ids=list(WINDOWS_STREAMS))
def windows_streams(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[_Streams]:
    yield _Streams(monkeypatch, *WINDOWS_STREAMS[request.param])


def test_the_bug_is_real_without_the_fix() -> None:
    """Proof the fixture reproduces Windows: "surrogateescape" does not cover "→"."""
    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252", errors="surrogateescape")
    with pytest.raises(UnicodeEncodeError):
        stream.write("Pi→PC ✔")
        stream.flush()


def test_measure_help_into_a_windows_pipe(windows_streams: _Streams) -> None:
    windows_streams.install()
    with pytest.raises(SystemExit) as ended:
        main(["measure", "--help"])
    assert ended.value.code == 0
    text = windows_streams.text(windows_streams.out)
    assert "usage: sbctune measure" in text
    if windows_streams.encoding != "utf-8":
        assert "->" in text and "→" not in text


def test_inspect_bundle_into_a_windows_file(windows_streams: _Streams) -> None:
    windows_streams.install()
    assert main(["inspect", str(PROFILE)]) == 0
    text = windows_streams.text(windows_streams.out)
    assert "Pi->PC" in text or "Pi→PC" in text
    assert windows_streams.text(windows_streams.err) == ""


def test_tune_status_into_a_windows_pipe(windows_streams: _Streams) -> None:
    session = LeftoverSession(
        id="s1", state="confirmed", started_at="2026-01-01T00:00:00Z", nic="eth0",
        persist=False, outcomes=[TweakOutcome("ring", "applied"),
                                 TweakOutcome("eee", "not_possible")],
    )  # fmt: skip
    windows_streams.install()
    make_console_safe()
    assert tune_status.print_status([session], as_json=False) == 0
    lines = windows_streams.text(windows_streams.out).splitlines()
    # "  ✔ ring: applied": the mark, then the tweak (by title; these ids have none) and what it did
    marks = {line.split(":")[0].split()[1]: line.split()[0] for line in lines[1:]}
    if windows_streams.encoding == "utf-8":
        assert marks == {"ring": "✔", "eee": "✗"}
    else:
        assert marks == {"ring": "ok", "eee": "x"}


def test_a_lone_surrogate_is_never_written_raw(windows_streams: _Streams) -> None:
    """A Pi's undecodable byte (a surrogate) becomes "?", not the raw byte on a terminal."""
    windows_streams.install()
    make_console_safe()
    print("eth\udc9b[0m", file=sys.stdout)
    assert windows_streams.text(windows_streams.out).strip() == "eth?[0m"


def test_no_stream_is_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", None)  # sbctune-gui.exe: a windowed exe has no streams
    monkeypatch.setattr(sys, "stderr", None)
    make_console_safe()


def test_stand_ins_fit_the_stream() -> None:
    assert "Pi→PC ± 3 … ✓".encode("ascii", HANDLER) == b"Pi->PC +/- 3 ... ok"
    assert "±→".encode("cp1252", HANDLER) == "±->".encode("cp1252")  # cp1252 has ±
    assert "雪".encode("ascii", HANDLER) == b"?"


def _writes_without_newline(tree: ast.AST) -> list[int]:
    """Lines of write_text(...) / open(..., "w") calls that do not say newline=."""
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        mode = next(
            (a.value for a in node.args[1:2] if isinstance(a, ast.Constant)),
            next((k.value.value for k in node.keywords
                  if k.arg == "mode" and isinstance(k.value, ast.Constant)), "r"),
        )  # fmt: skip
        writes = name == "write_text" or (name == "open" and "w" in str(mode))
        if writes and not any(k.arg == "newline" for k in node.keywords):
            bad.append(node.lineno)
    return bad


def test_every_export_says_its_line_endings() -> None:
    offenders = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "app" / "export").rglob("*.py"))
        if (lines := _writes_without_newline(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert offenders == {}, f"write with newline='\\n' (or '' for csv): {offenders}"


# Text read or written with the locale's encoding is cp1252 on Windows: the product's and the
# tests' files say their encoding (the Windows lane runs tests/unit and tests/gui).
ENCODING_CHECKED = [ROOT / "app", ROOT / "ui", ROOT / "tests" / "unit", ROOT / "tests" / "gui",
                    *sorted((ROOT / "tests").glob("*.py"))]  # fmt: skip
_TEXT_MODES = {"r", "w", "a", "x", "r+", "w+", "a+", "rt", "wt", "at"}


def _mode(node: ast.Call, position: int) -> object:
    if len(node.args) > position and isinstance(node.args[position], ast.Constant):
        return node.args[position].value
    return next((k.value.value for k in node.keywords
                 if k.arg == "mode" and isinstance(k.value, ast.Constant)), None)  # fmt: skip


def _text_io_without_encoding(tree: ast.AST) -> list[int]:
    """Lines of read_text/write_text, open() and path.open() in text mode without encoding=."""
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or any(
            k.arg in ("encoding", None) for k in node.keywords
        ):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("read_text", "write_text"):
            # read_text(encoding, errors), write_text(data, encoding, ...): positional is said too
            if len(node.args) < (1 if func.attr == "read_text" else 2):
                bad.append(node.lineno)
        elif isinstance(func, ast.Name) and func.id == "open":
            if "b" not in str(_mode(node, 1) or "r"):
                bad.append(node.lineno)
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "open"
            and _mode(node, 0) in _TEXT_MODES  # path.open("w"); not History.open(), zf.open()
        ):
            bad.append(node.lineno)
    return bad


def test_every_text_file_says_its_encoding() -> None:
    paths = [p for root in ENCODING_CHECKED for p in ([root] if root.is_file() else
             sorted(root.rglob("*.py")))]  # fmt: skip
    offenders = {
        str(path.relative_to(ROOT)): lines
        for path in paths
        if (lines := _text_io_without_encoding(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert len(paths) > 300
    assert offenders == {}, f'say encoding="utf-8" (Windows reads cp1252 otherwise): {offenders}'


def test_the_check_sees_text_io_without_encoding() -> None:
    assert _text_io_without_encoding(ast.parse("p.read_text()\nopen(p, 'w')\np.open('a')")) == [
        1, 2, 3]  # fmt: skip
    good = "p.read_text(encoding='utf-8')\nopen(p, 'rb')\nzf.open(name)\nHistory.open()"
    assert (
        _text_io_without_encoding(ast.parse("p.read_text('utf-8')\np.write_text(t, 'utf-8')")) == []
    )
    assert _text_io_without_encoding(ast.parse("p.write_text(t)")) == [1]
    assert _text_io_without_encoding(ast.parse(good)) == []


def test_the_check_sees_a_write_without_newline() -> None:
    assert _writes_without_newline(ast.parse("p.write_text(t, encoding='utf-8')")) == [1]
    assert _writes_without_newline(ast.parse("open(p, 'w', encoding='utf-8')")) == [1]
    assert _writes_without_newline(ast.parse("open(p, encoding='utf-8')")) == []
