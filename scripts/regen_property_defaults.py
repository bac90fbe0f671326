#!/usr/bin/env python3
"""Regenerate resources/kernel_source/property_defaults.json: the error- and warning-level
lines a network driver prints when an optional firmware property (device tree, ACPI _DSD) is
absent and it goes on with a default of its own.

    python scripts/regen_property_defaults.py    # obtains the source via kernel_source.py

Why: drivers/net/ethernet/stmicro/stmmac/dwmac-rk.c rk_gmac_setup() (6.1 and 6.12) reads the
board's "tx_delay" and "rx_delay" properties and, when one is absent, sets 0x30 / 0x10 and
prints "Can not read property: rx_delay." and "set rx_delay to 0x%x" with dev_err(). The level
is err, but nothing failed: the probe goes on with the default (and an RGMII_ID/RXID board does
not use the MAC's delay at all). A reader does not call those lines the driver's complaint;
sbctune.advice.driver_complaints names them as the default the driver took instead.

The rule read from the source, for every drivers/net/**/*.c of 6.1 and 6.12:
``ret = <of|device|fwnode>_property_read_*(..., "prop", ...);`` followed by ``if (ret)`` (or
``ret < 0``, ``ret != 0``), or ``if (<...>_property_read_*(...))`` itself, whose branch assigns
something and neither returns nor jumps (no ``return``, ``goto``, ``break``): every err/warn
call in that branch (the calls regen_kernel_source.py reads) prints a default-taken line. A
branch that returns or jumps is a failure path, and its lines stay complaints.
tests/test_property_defaults_source.py checks the table against the source.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "property_defaults.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

from kernel_source import pinned_trees, write_table  # noqa: E402
from log_call_formats import call_level, print_calls  # noqa: E402

GLOBS = ("drivers/net/*",)
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# ..._read_bool() is true when the property is there, ..._read_variable_*() returns a count:
# neither returns non-zero on a missing property, so neither's branch is a default taken.
_READ = r"\b(?:of|device|fwnode)_property_read_(?!bool\b|variable_)\w+\s*\("
# ``ret = of_property_read_u32(np, "rx_delay", &value);`` then ``if (ret)``
_ASSIGNED = re.compile(r"\b(\w+)\s*=\s*(" + _READ + r")")
# ``if (of_property_read_u32(np, "rx_delay", &value))``
_DIRECT = re.compile(r"\bif\s*\(\s*(" + _READ + r")")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LEAVES = re.compile(r"\b(?:return|goto|break|continue)\b")
_ASSIGNS = re.compile(r"[\w\]\)]\s*(?:\+|-|\||&)?=(?!=)")
_FUNCTION = re.compile(r"^[a-z_][^;{}()\n]*?\b(\w+)\s*\([^;{}]*\)\s*\{", re.M)
_LEVELS = ("err", "warn", "crit", "alert", "emerg")


def _close(text: str, start: int, opening: str, closing: str) -> int:
    """The index just after the bracket that closes the one opened before `start`."""
    depth = 1
    i = start
    while i < len(text) and depth:
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
        i += 1
    return i


def _branch(text: str, after_if: int) -> tuple[str, int] | None:
    """The branch of the ``if`` whose condition's '(' ends at `after_if`: its text (a braced
    block, or one statement) and where it starts."""
    end = _close(text, after_if, "(", ")")
    rest = text[end:]
    stripped = rest.lstrip()
    start = end + len(rest) - len(stripped)
    if stripped.startswith("{"):
        return text[start : _close(text, start + 1, "{", "}")], start
    semi = text.find(";", start)
    return (text[start : semi + 1], start) if semi >= 0 else None


def _failure_test(condition: str, var: str) -> bool:
    """``(ret)``, ``(ret < 0)``, ``(ret != 0)``: the test of a failed read (not ``(!ret)``)."""
    cond = condition.strip()
    return bool(
        re.fullmatch(rf"\(\s*(?:unlikely\s*\(\s*)?{var}\s*(?:<\s*0|!=\s*0)?\s*\)?\s*\)", cond)
    )


def _prop(call_args: str) -> str:
    m = _STRING.search(call_args)
    return m.group(0)[1:-1] if m else ""


def _function(text: str, pos: int) -> str:
    found = ""
    for m in _FUNCTION.finditer(text, 0, pos):
        found = m.group(1)
    return found


def _defaults_in(branch: str, var: str) -> list[tuple[str, str]]:
    """(level, format) of every err/warn call of a branch that assigns a default and does not
    leave. Setting the read's own result (dwmac-stm32.c's ``err = 0``) is no default: the
    function returns that result after the branch (6.12 stm32_dwmac_parse_data())."""
    code = _STRING.sub('""', branch)
    if var:
        code = re.sub(rf"\b{var}\s*=(?!=)", "", code)
    if _LEAVES.search(code) or not _ASSIGNS.search(code):
        return []
    found: list[tuple[str, str]] = []
    for call, fmt, kern in print_calls(branch):
        level = call_level(call, kern)
        if level not in _LEVELS:
            continue
        if len(fmt) >= 6 and re.search(r"[A-Za-z]{3}", fmt):
            found.append((level, fmt))
    return found


def scan(text: str) -> list[dict[str, str]]:
    """The default-taken lines of one source file."""
    if "_property_read_" not in text:  # in every site _ASSIGNED and _DIRECT match: none here
        return []  # (C's substring search first: most files skip the comment strip and scans)
    text = _COMMENT.sub(lambda m: " " * len(m.group(0)), text)
    rows: list[dict[str, str]] = []
    # (read's '(' end, condition's '(', its arguments, the result's variable, the read's name)
    sites: list[tuple[int, int, str, str, str]] = []
    for m in _ASSIGNED.finditer(text):
        args_end = _close(text, m.end(), "(", ")")
        tail = re.match(r"\s*;\s*if\s*\(", text[args_end:])
        if tail is None:
            continue
        cond_open = args_end + tail.end()
        cond_end = _close(text, cond_open, "(", ")")
        if not _failure_test(text[cond_open - 1 : cond_end], m.group(1)):
            continue
        read = m.group(2).rstrip("( \t\n")
        sites.append((m.end(), cond_open, text[m.end() : args_end], m.group(1), read))
    for m in _DIRECT.finditer(text):
        cond_open = text.index("(", m.start()) + 1
        cond = text[cond_open - 1 : _close(text, cond_open, "(", ")")]
        if re.search(r"!\s*(?:of|device|fwnode)_property_read", cond) or "==" in cond:
            continue
        args_end = _close(text, m.end(), "(", ")")
        read = m.group(1).rstrip("( \t\n")
        sites.append((m.end(), cond_open, text[m.end() : args_end], "", read))
    for read_at, cond_open, args, var, read in sites:
        got = _branch(text, cond_open)
        if got is None:
            continue
        branch, _start = got
        for level, fmt in _defaults_in(branch, var):
            rows.append(
                {
                    "property": _prop(args),
                    "read": read,
                    "level": level,
                    "function": _function(text, read_at),
                    "format": fmt,
                }
            )
    return rows


def table(trees: dict[str, Path]) -> list[dict[str, object]]:
    """One row per (file, format): its property, level, function and the series printing it."""
    rows: dict[tuple[str, str], dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers/net").rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            for row in scan(path.read_text(encoding="utf-8", errors="replace")):
                entry = rows.setdefault((rel, row["format"]), {"file": rel, **row, "series": []})
                series_list = entry["series"]
                assert isinstance(series_list, list)
                if series not in series_list:
                    series_list.append(series)
    return [rows[k] for k in sorted(rows)]


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    rows = table(trees)
    write_table(
        OUT, "scripts/regen_property_defaults.py", versions, {"defaults": rows}, sort_keys=True
    )
    files = {str(r["file"]) for r in rows}
    print(f"{len(rows)} default-taken formats in {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
