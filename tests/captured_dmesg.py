"""The real kernel logs of tests/captures/dmesg, for the tests that check a rule or a fast path
against every captured line: in name order, read as UTF-8 with undecodable bytes replaced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sbctune.inventory.parsers.dmesg import DmesgResult, parse_dmesg

DMESG = Path(__file__).resolve().parent / "captures" / "dmesg"


def captured_texts(limit: int | None = None) -> Iterator[tuple[str, str]]:
    """(file name, text) of each captured log, the first `limit` of them where given."""
    for path in sorted(DMESG.glob("*.txt"))[:limit]:
        yield path.name, path.read_text(encoding="utf-8", errors="replace")


def captured_logs(limit: int | None = None) -> Iterator[tuple[str, DmesgResult]]:
    """(file name, parse) of each captured log that parses, the first `limit` of them."""
    for name, text in captured_texts(limit):
        parsed, _warnings = parse_dmesg(text)
        if parsed is not None:
            yield name, parsed
