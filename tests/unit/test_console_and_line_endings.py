"""What differs between Windows, macOS and Linux in the CLI's output and the exports.

- A console or redirect that cannot hold "→" (Windows cp1252, ASCII) must not end a command.
- Exports are the same bytes on every OS: text files are written with "\\n" line endings
  (Python's text mode would write "\\r\\n" on Windows), except CSV, which RFC 4180 gives CRLF
  through the csv module (newline="").
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sbctune.cli.console import HANDLER

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "resources" / "lab" / "profiles" / "pi4-ax88179"


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_inspect_to_a_narrow_stream_prints_stand_ins(encoding: str) -> None:
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    proc = subprocess.run(
        [sys.executable, "-m", "sbctune", "inspect", str(PROFILE)],
        capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr.decode(encoding, "replace")
    text = proc.stdout.decode(encoding)
    assert "Pi->PC" in text  # "Pi→PC" with a readable stand-in
    assert "UnicodeEncodeError" not in proc.stderr.decode(encoding, "replace")


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
        if (lines := _writes_without_newline(ast.parse(path.read_text())))
    }
    assert offenders == {}, f"write with newline='\\n' (or '' for csv): {offenders}"


def test_the_check_sees_a_write_without_newline() -> None:
    assert _writes_without_newline(ast.parse("p.write_text(t, encoding='utf-8')")) == [1]
    assert _writes_without_newline(ast.parse("open(p, 'w', encoding='utf-8')")) == [1]
    assert _writes_without_newline(ast.parse("open(p, encoding='utf-8')")) == []
