#!/usr/bin/env python3
"""Regenerate resources/kernel_source/of_compatibles.json: which network driver binds a
device-tree ``compatible``, from the ``struct of_device_id`` tables of drivers/net/ in Debian's
linux-source-6.1 and -6.12 (the versions resources/kernel_source/VERSION.json names).

    python scripts/regen_of_compatibles.py    # obtains the source via kernel_source.py

Why the source and not modules.alias: modules.alias's ``of:N*T*C<compatible>`` lines are made by
modpost from the very tables a ``MODULE_DEVICE_TABLE(of, NAME)`` names (scripts/mod/
file2alias.c do_of_entry()), so the tables hold the same compatibles; reading them also covers
drivers built in (no alias written) and 6.12, whose kernel images resources/ids/ does not read.
A table is kept when a driver struct points at it (``.of_match_table = NAME`` or
``of_match_ptr(NAME)``) or a MODULE_DEVICE_TABLE(of, ...) names it; its compatibles keep their
order (drivers/of/base.c __of_match_node() scores entries by the device's list, the table's
order breaking ties).

Output: ``compatibles``: compatible → {driver: [series]}; ``drivers``: driver → {bus, file,
series} (bus: the driver struct's kind, ``platform``, ``spi``, ``mdio`` ...).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "of_compatibles.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees  # noqa: E402
from regen_kernel_source import _NAME_RE, _defines, _module  # noqa: E402

GLOBS = ("drivers/net/*",)
_TABLE_RE = re.compile(
    r"struct\s+of_device_id\s+(\w+)\s*\[\s*\w*\s*\]\s*(?:__\w+\s*)*=\s*\{(.*?)\n\s*\}\s*;", re.S
)
_COMPATIBLE_RE = re.compile(r"\.compatible\s*=\s*\"([^\"]+)\"")
_DEVICE_TABLE_RE = re.compile(r"MODULE_DEVICE_TABLE\(\s*of\s*,\s*(\w+)\s*\)")
_DRIVER_RE = re.compile(
    r"^(?:static\s+)?(?:const\s+)?struct\s+(\w+)_driver\s+\w+\s*(?:__\w+\s*)?=\s*\{(.*?)^\};",
    re.S | re.M,
)
_MATCH_RE = re.compile(r"\.of_match_table\s*=\s*(?:of_match_ptr\s*\(\s*)?(\w+)")


def _tables(root: Path) -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """(driver → {bus, file}, compatible → drivers) of one tree."""
    drivers: dict[str, dict[str, str]] = {}
    binds: dict[str, list[str]] = {}
    for path in sorted((root / "drivers/net").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "of_device_id" not in text:
            continue
        tables = {name: _COMPATIBLE_RE.findall(body) for name, body in _TABLE_RE.findall(text)}
        if not tables:
            continue
        rel = path.relative_to(root).as_posix()
        local: dict[str, str] | None = None
        used: set[str] = set()
        for kind, body in _DRIVER_RE.findall(text):
            match, named = _MATCH_RE.search(body), _NAME_RE.search(body)
            if match is None or named is None or match.group(1) not in tables:
                continue
            if local is None:
                local = {**_defines(sorted(path.parent.glob("*.[ch]"))), **_defines([path])}
            name = named.group(1) or local.get(named.group(2) or "", "")
            if not name:  # KBUILD_MODNAME, or a name this directory does not define
                name = _module(path)
            used.add(match.group(1))
            drivers.setdefault(name, {"bus": kind, "file": rel})
            for compatible in tables[match.group(1)]:
                found = binds.setdefault(compatible, [])
                if name not in found:
                    found.append(name)
        # a module's table that no driver struct of this file points at: its module's name
        for table in _DEVICE_TABLE_RE.findall(text):
            if table in tables and table not in used:
                name = _module(path)
                drivers.setdefault(name, {"bus": "platform", "file": rel})
                for compatible in tables[table]:
                    found = binds.setdefault(compatible, [])
                    if name not in found:
                        found.append(name)
    return drivers, binds


def build(trees: dict[str, Path]) -> dict[str, object]:
    """The table's ``compatibles`` and ``drivers`` from each series' tree."""
    drivers: dict[str, dict[str, object]] = {}
    compatibles: dict[str, dict[str, list[str]]] = {}
    for series, root in trees.items():
        found, binds = _tables(root)
        for name, info in found.items():
            entry = drivers.setdefault(name, {**info, "series": []})
            entry["series"].append(series)  # type: ignore[attr-defined]
        for compatible, names in binds.items():
            for name in names:
                compatibles.setdefault(compatible, {}).setdefault(name, []).append(series)
    return {
        "compatibles": dict(sorted(compatibles.items())),
        "drivers": dict(sorted(drivers.items())),
    }


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    OUT.write_text(
        json.dumps(
            {
                "generated": datetime.now(UTC).date().isoformat(),
                "script": "scripts/regen_of_compatibles.py",
                "packages": {f"linux-source-{s}": v for s, v in versions.items()},
                **table,
            },
            indent=0,
            sort_keys=False,
        )
        + "\n",
        encoding="utf-8",
    )
    print(
        f"{len(table['compatibles'])} compatibles, {len(table['drivers'])} drivers from {versions}"
    )  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
