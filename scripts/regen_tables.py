"""What the regen scripts do alike around their own reading: the pinned kernel trees they read
(each series at the version resources/kernel_source/VERSION.json pins, named by package), the
generated table they write (JSON with one-space indents and a final newline), and the --check
mode that compares instead of writing. One place, so every table is written the same way."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernel_source import pinned_trees

ROOT = Path(__file__).resolve().parent.parent
KERNEL_SOURCE = ROOT / "resources" / "kernel_source"
PINS = KERNEL_SOURCE / "VERSION.json"


def pinned_packages(globs: Sequence[str]) -> tuple[dict[str, Path], dict[str, str]]:
    """Each series' tree holding `globs` at its pinned version (series -> root), and the
    versions read keyed by package (``linux-source-6.1``), as most tables name them."""
    trees, used = pinned_trees(globs, PINS)
    return trees, {f"linux-source-{series}": version for series, version in used.items()}


def json_text(data: Any, *, sort_keys: bool = False, ensure_ascii: bool = True) -> str:
    """A table as the regen scripts write it: one-space indents, a final newline."""
    return json.dumps(data, indent=1, sort_keys=sort_keys, ensure_ascii=ensure_ascii) + "\n"


def write_json(
    path: Path, data: Any, *, sort_keys: bool = False, ensure_ascii: bool = True
) -> None:
    path.write_text(
        json_text(data, sort_keys=sort_keys, ensure_ascii=ensure_ascii), encoding="utf-8"
    )


def check_or_write(
    path: Path, before: str, after: str, check: bool, problems: Sequence[str] = ()
) -> int | None:
    """--check: say whether `path` (`before`) is what its source generates (`after`) and give
    the exit code, writing nothing; else write `after` and return None (the script goes on).
    Where the source gave `problems`, each is said on stderr and nothing is written (exit 1)."""
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    if check:
        print("up to date" if after == before else f"{path.name} differs from its source")
        return 0 if after == before else 1
    path.write_text(after, encoding="utf-8")
    return None


def check_parser(doc: str | None) -> argparse.ArgumentParser:
    """A regen script's arguments: its docstring's first line, and --check."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a change")
    return parser


def write_rows(
    path: Path,
    head: dict[str, Any],
    key: str,
    rows: list[Any],
    *,
    ensure_ascii: bool = False,
    columns: list[str] | None = None,
) -> None:
    """A long table as `head` (indented) then `key`'s rows one a line (a diff shows a row),
    after `columns` (the rows' column names, on one line) where given."""
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    if columns is not None:
        text += f',\n "columns": {json.dumps(columns)}'
    lines = [json.dumps(row, ensure_ascii=ensure_ascii) for row in rows]
    path.write_text(text + f',\n "{key}": [\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")


def add_once(row: dict[str, Any], **values: Any) -> None:
    """Append each value to `row`'s list of that name unless it is there (a table row's files and
    series, gathered as each series is read)."""
    for key, value in values.items():
        listed = row[key]
        if value not in listed:
            listed.append(value)
