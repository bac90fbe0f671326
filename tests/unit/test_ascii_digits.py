"""`str.isdigit()` is true for digits `int()` refuses ("²", "¹"): a parser or a lab model that
checks with it and then calls int() raises on garbage (hypothesis found "lanes ²" in the lab's
ethtool, s18). Every such check in the product asks `isascii()` too, as the Pi's own tools
(strtoul, ASCII) read numbers; a character-by-character test is left alone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CALL = ".isdigit()"
OPEN, CLOSE = "([{", ")]}"


def _receiver(before: str) -> str:
    """The expression `.isdigit()` is called on: the text back to the first space or opening
    bracket that is not inside brackets of its own."""
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        ch = before[i]
        if ch in CLOSE:
            depth += 1
        elif ch in OPEN:
            if depth == 0:
                return before[i + 1 :]
            depth -= 1
        elif ch == " " and depth == 0:
            return before[i + 1 :]
    return before


def _unpaired(line: str) -> list[str]:
    found = []
    for m in re.finditer(re.escape(CALL), line):
        expr = _receiver(line[: m.start()])
        if f"{expr}.isascii()" not in line and f"for {expr} in " not in line:
            found.append(expr)
    return found


def test_every_digit_check_is_ascii() -> None:
    found = []
    for folder in ("app", "ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if line.lstrip().startswith("#"):
                    continue
                found += [f"{path.relative_to(ROOT).as_posix()}:{n}: {e}" for e in _unpaired(line)]
    assert not found, "\n".join(found)


def test_the_check_sees_an_unpaired_one() -> None:
    assert _unpaired("ok = value.isdigit()") == ["value"]
    assert _unpaired("ok = (value.isascii() and value.isdigit())") == []
    assert _unpaired("any(c.isdigit() for c in name)") == []
