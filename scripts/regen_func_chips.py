#!/usr/bin/env python3
"""Regenerate resources/kernel_source/func_chips.json: the functions of a driver's per-chip
source files that print their own name (``"%s: ...", __func__``), and the chips that file
names, so a line such a function printed names its device's chip family.

    python scripts/regen_func_chips.py    # obtains the source via kernel_source.py

Why: rtl8xxxu prints "usb 1-6: rtl8192eu_parse_efuse: dumping efuse (0x200 bytes):" from
drivers/net/wireless/realtek/rtl8xxxu/8192e.c, the file of the RTL8192EU family; that file
sets the chip's name itself (rtl8192eu_identify_chip(): "8191EU" or "8192EU"), so the line says
"RTL8192EU or RTL8191EU". A file qualifies when it names at most _MAX_CHIPS chips by a string
assigned to a ``chip_name`` (the chips it drives are that few); the name's prefix ("RTL") is the
one the driver's directory prints before it (``"RTL%s MAC: %pM", priv->chip_name``). Read from
drivers/net/ and drivers/staging/ of Debian's linux-source-6.1 and 6.12.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "func_chips.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees  # noqa: E402
from regen_tables import write_json  # noqa: E402

GLOBS = ("drivers/net/*", "drivers/staging/*")
_MAX_CHIPS = 4
# strscpy(priv->chip_name, "8192EU", ...), sprintf(priv->chip_name, "8710BU"), x->chip_name =
# "..."
_CHIP_NAME_RE = re.compile(r"chip_name\s*(?:,|=)\s*\"([A-Za-z0-9]{2,16})\"")
# A function's definition at the start of a line (not a prototype: no ";" before its "{").
_DEF_RE = re.compile(
    r"^(?:static\s+)?(?:inline\s+)?[a-z_][\w \t*]*?\b([a-z][a-z0-9]*_\w{1,60})\(", re.M
)
# A log call whose format starts with the function's own name: "%s: ...", __func__
_FUNC_FORMAT_RE = re.compile(r"\"%s:? [^\"]*\"\s*,\s*__func__")
# "RTL%s MAC: %pM\n", priv->chip_name: the prefix the driver prints before a chip's name
_PREFIX_RE = re.compile(r"\"([A-Z]{2,5})%s[^\"]*\"[^;]{0,120}?chip_name")


def _bodies(text: str) -> dict[str, str]:
    """Each function defined in a file -> its text up to the next definition."""
    found = [(m.group(1), m.start()) for m in _DEF_RE.finditer(text)]
    out: dict[str, str] = {}
    for i, (name, start) in enumerate(found):
        end = found[i + 1][1] if i + 1 < len(found) else len(text)
        body = text[start:end]
        head = body.split("{", 1)[0]
        if "{" in body and ";" not in head:
            out[name] = body
    return out


def _prefix(directory: Path) -> str:
    for path in sorted(directory.glob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "chip_name" in text and (m := _PREFIX_RE.search(text)):
            return m.group(1)
    return ""


def _chip_files(root: Path) -> dict[Path, list[str]]:
    """Files that name their chips: where a driver's directory assigns chip names only in
    such files (6.1's rtl8xxxu names them all in rtl8xxxu_core.c: none there), each of them
    with at most _MAX_CHIPS names."""
    named: dict[Path, list[str]] = {}
    for top in GLOBS:
        for path in sorted((root / top.rstrip("/*")).rglob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "chip_name" in text and (chips := sorted(set(_CHIP_NAME_RE.findall(text)))):
                named[path] = chips
    dirs: dict[Path, list[Path]] = {}
    for path in named:
        dirs.setdefault(path.parent, []).append(path)
    return {
        path: named[path]
        for paths in dirs.values()
        if all(len(named[p]) <= _MAX_CHIPS for p in paths)
        for path in paths
    }


def scan(root: Path) -> tuple[dict[str, str], dict[str, tuple[list[str], str]]]:
    """(function -> file, for the functions that print their own name; function -> (chips,
    file), for the functions of a file that names its chips) in one source tree."""
    printing: dict[str, str] = {}
    defined: dict[str, tuple[list[str], str]] = {}
    chip_files = _chip_files(root)
    for top in GLOBS:
        for path in sorted((root / top.rstrip("/*")).rglob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            chips = chip_files.get(path)
            if "__func__" not in text and chips is None:
                continue
            rel = path.relative_to(root).as_posix()
            prefix = _prefix(path.parent) if chips else ""
            for name, body in _bodies(text).items():
                if _FUNC_FORMAT_RE.search(body):
                    printing[name] = rel
                if chips:
                    defined[name] = ([f"{prefix}{c}" for c in chips], rel)
    return printing, defined


def _ranked(name: str, chips: list[str]) -> list[str]:
    """The chip the function's own name carries first ("rtl8192eu_...": RTL8192EU)."""
    head = name.split("_", 1)[0].lower()
    return sorted(chips, key=lambda c: (not head.endswith(c.lower()[-6:]), c))


def build(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    """The table's "functions" from the source trees, by series."""
    printing: dict[str, dict[str, str]] = {}  # function -> series -> file
    defined: dict[str, tuple[list[str], str, str]] = {}  # function -> (chips, file, series)
    for series, root in trees.items():
        prints, chips = scan(root)
        for name, rel in prints.items():
            printing.setdefault(name, {})[series] = rel
        for name, (names, rel) in chips.items():
            defined.setdefault(name, (names, rel, series))
    table: dict[str, dict[str, object]] = {}
    for name, where in printing.items():
        if name not in defined:
            continue
        names, rel, series = defined[name]
        if any(Path(f).parent != Path(rel).parent for f in where.values()):
            continue  # the same name in another driver
        table[name] = {
            "chips": _ranked(name, names),
            "printed_in": dict(sorted(where.items())),
            "chips_named_in": {series: rel},
        }
    return dict(sorted(table.items()))


def main() -> int:
    trees, used = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    data = {
        "about": (
            "Functions of a driver's per-chip source file that print their own name "
            '("%s: ...", __func__), and the chips that file names (a string assigned to a '
            "chip_name, with the prefix the driver prints before it). Generated by "
            "scripts/regen_func_chips.py; checked by tests/unit/test_func_chips.py."
        ),
        "linux-source": used,
        "functions": table,
    }
    write_json(OUT, data, sort_keys=False)
    print(f"{len(table)} functions name their chips -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
