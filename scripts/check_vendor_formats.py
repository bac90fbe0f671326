"""Check resources/kernel_source/vendor_formats.json against the printing calls its rows quote,
and say where each row came from.

The rows are read by hand from out-of-tree drivers' public source (the search tool that reads
those repositories is not available to scripts): each row copies its printing call verbatim
("call"). This checks that the row's format is that call's string literal (adjacent literals
joined, the trailing newline dropped), that its level is the call's (dev_err, netdev_warn,
pr_info, printk(KERN_ERR ...) ...), that each conversion has a field name, and that the source
names a repository at a 40-digit commit, a file and a function. A row with a "function" (a
driver printing only its function's name, printf("%s: ...", __FUNCTION__)) has the format after
that leading "%s: "; bcmdhd's printf (its osl's macro for printk with no level) and a printk with
no KERN_ level are no error calls: level "info". A "firmware_prefixes" row
quotes the expression that builds a firmware file's name and its macros' strings: the expression,
expanded up to its first conversion, must begin with the row's prefix.

Usage: python scripts/check_vendor_formats.py   (prints each row's origin; exit 1 on a mismatch)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "resources" / "kernel_source" / "vendor_formats.json"
_LEVEL = {"err": "error", "warn": "warn", "warning": "warn", "info": "info", "notice": "info"}
_CALL = re.compile(r"^\s*(?:dev|netdev|pr|wiphy)_(err|warn|warning|info|notice)\s*\(")
_PRINTK = re.compile(r"^\s*printk\s*\(\s*KERN_(ERR|WARNING|INFO|NOTICE)\b")
_LEVELLESS = re.compile(r"^\s*(?:printf|printk)\s*\(\s*\"")  # the kernel's default level
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SOURCE = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40} \S+\.[ch] \w+\(\)")
_SPEC = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.\d+)?(?:hh|h|ll|l|z)?([a-zA-Z])")


def call_level(call: str) -> str | None:
    if m := _CALL.match(call):
        return _LEVEL[m.group(1)]
    if m := _PRINTK.match(call):
        return {"ERR": "error", "WARNING": "warn"}.get(m.group(1), "info")
    if _LEVELLESS.match(call):
        return "info"
    return None


def call_format(call: str) -> str:
    """The call's format: its first run of adjacent string literals, joined, unescaped."""
    start = call.find('"')
    run: list[str] = []
    prev_end = start
    for m in _LITERAL.finditer(call, start):
        if run and call[prev_end : m.start()].strip():
            break
        run.append(m.group(1))
        prev_end = m.end()
    text = "".join(run).encode().decode("unicode_escape")
    return text.removesuffix("\n")


def _via(row: dict[str, object], call: str) -> str | None:
    """The level of a driver's own printing macro, by the kernel call the row says it ends in
    ("via": MORSE_SPI_ERR -> morse_err() -> dev_err()); None when the call is not that macro."""
    via = row.get("via")
    if not isinstance(via, dict) or not call.lstrip().startswith(f"{via.get('macro')}("):
        return None
    return call_level(f"{via.get('prints')}(") if _SOURCE.match(str(via.get("source"))) else None


def problems(row: dict[str, object]) -> list[str]:
    call = str(row.get("call", ""))
    found = []
    said = call_format(call)
    if row.get("function"):  # printf("%s: ...", __FUNCTION__): the format after the name
        said = said.removeprefix("%s: ") if said.startswith("%s: ") else f"(no %s: ) {said}"
    elif row.get("prefix"):  # pr_info("%s ...", CARDNAME): the format after the driver's word
        said = said.removeprefix("%s ") if said.startswith("%s ") else f"(no %s ) {said}"
    if said != row.get("format"):
        found.append(f"format {row.get('format')!r} is not the call's {said!r}")
    level = _via(row, call) or call_level(call)
    if level != row.get("level"):
        found.append(f"level {row.get('level')!r} is not the call's {level!r}")
    fields = row.get("fields")
    if not isinstance(fields, list) or len(fields) != len(_SPEC.findall(str(row.get("format")))):
        found.append("one field name per conversion is needed")
    if not _SOURCE.match(str(row.get("source", ""))):
        found.append("the source must say owner/repo@<40-digit commit> file function()")
    if row.get("bus") not in ("usb", "pci", "platform", "sdio", None):
        found.append(f"bus {row.get('bus')!r} is none of contract 2's")  # SPI: None
    return found


_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([A-Z_][A-Z0-9_]*)')


def path_prefix(path: str, macros: dict[str, str]) -> str | None:
    """The file name a firmware row's quoted name expression begins with: its string literals
    and its macros' strings joined up to the first conversion ("%s"); None when a macro before
    it has no string in the row."""
    said = ""
    for m in _TOKEN.finditer(path):
        piece = m.group(1) if m.group(1) is not None else macros.get(m.group(2))
        if piece is None:
            return None
        if "%" in piece:
            return said + piece.split("%", 1)[0]
        said += piece
    return said


def firmware_problems(row: dict[str, object]) -> list[str]:
    found = []
    macros = row.get("macros")
    prefix = path_prefix(str(row.get("path", "")), macros if isinstance(macros, dict) else {})
    if prefix is None or not prefix.startswith(str(row.get("prefix"))) or not row.get("prefix"):
        found.append(f"prefix {row.get('prefix')!r} does not begin the expression's {prefix!r}")
    if not _SOURCE.match(str(row.get("source", ""))):
        found.append("the source must say owner/repo@<40-digit commit> file function()")
    if not row.get("drivers") or not row.get("chip"):
        found.append("a row names its chip and the drivers that load the file")
    return found


def main() -> int:
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    rows = table["formats"]
    bad = 0
    for row in rows:
        said = problems(row)
        bad += bool(said)
        mark = "BAD " if said else "ok  "
        print(f"{mark}{row['driver']}: {row['format']!r} ({row['level']}) from {row['source']}")
        for problem in said:
            print(f"      {problem}")
    for row in table.get("firmware_prefixes", []):
        said = firmware_problems(row)
        bad += bool(said)
        mark = "BAD " if said else "ok  "
        print(f"{mark}firmware {row['prefix']!r}: {row['chip']} from {row['source']}")
        for problem in said:
            print(f"      {problem}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
