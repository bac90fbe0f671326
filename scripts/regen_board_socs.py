#!/usr/bin/env python3
"""Regenerate resources/kernel_source/boards.json: every board the kernel's device trees
describe, with its model, its compatible list and its SoC.

    python scripts/regen_board_socs.py        # obtains the source via kernel_source.py

Source: the device-tree sources of Debian's linux-source-6.1 and -6.12 (the package versions
resources/kernel_source/VERSION.json names), arch/arm/boot/dts/**, arch/arm64/boot/dts/** and
arch/riscv/boot/dts/**. For each board file (*.dts) the root node's `model = "..."` and
`compatible = "vendor,board", ..., "vendor,soc"` are read, following the file's own
`#include "..."` of other .dts/.dtsi files (a later value overrides an earlier one, as dtc does).

The SoC is the compatible list's first entry after the board's own (index 0) whose vendor is the
vendor of the list's last entry: "hardkernel,odroid-n2", "amlogic,s922x", "amlogic,g12b" ->
amlogic,s922x; "google,veyron-jerry-rev15", ..., "google,veyron", "rockchip,rk3288" ->
rockchip,rk3288. Its display name is the part after the comma in capitals, without Allwinner's
"sunNNi-" family prefix (allwinner,sun50i-h616 -> H616).

An entry that is itself a board is skipped: a board family whose members list the family's
board before the SoC, of the SoC's own vendor ("ti,am335x-bone-black", "ti,am335x-bone",
"ti,am33xx" -> ti,am33xx, not the original BeagleBone's ti,am335x-bone; "renesas,m3ulcb",
"renesas,r8a7796" under a Kingfisher's "shimafuji,kingfisher"). A board compatible is the first
entry of a list that a .dts file writes itself (am335x-bone.dts: "ti,am335x-bone", "ti,am33xx"),
unless a .dtsi writes it at its own root too: that is how the SoC's .dtsi names the SoC
(armada-385.dtsi: "marvell,armada385", "marvell,armada380", which the Clearfog GTR's .dts
inherits as its whole list).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "boards.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import add_once, pinned_packages, write_rows  # noqa: E402

GLOBS = ("arch/arm/boot/dts/*", "arch/arm64/boot/dts/*", "arch/riscv/boot/dts/*")
DTS_DIRS = ("arch/arm/boot/dts", "arch/arm64/boot/dts", "arch/riscv/boot/dts")
# scripts/dtc/include-prefixes: "arm/x.dts" from arm64 is arch/arm/boot/dts/x.dts
_PREFIXES = {"arm": "arch/arm/boot/dts", "arm64": "arch/arm64/boot/dts"}
_PREFIXES |= {"riscv": "arch/riscv/boot/dts"}

_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_INCLUDE_RE = re.compile(r'^\s*#include\s+"([^"]+\.dtsi?)"', re.M)
_ROOT_RE = re.compile(r"(?:^|[;}\s])/\s*\{")
_PROP_RE = re.compile(r'\s*(model|compatible)\s*=\s*((?:"[^"]*"\s*,?\s*)+);')
_STRING_RE = re.compile(r'"([^"]*)"')
_BRACE_RE = re.compile(r"[{}]")
_SUNXI_RE = re.compile(r"^sun\d+[a-z]*i-")
COLUMNS = ("model", "compatible", "soc", "soc_compatible", "series", "files")


def _root_bodies(text: str) -> Iterator[str]:
    """The text of each top-level `/ { ... };` block, its child nodes cut out (depth 1 only)."""
    for match in _ROOT_RE.finditer(text):
        # From brace to brace (C's scan), not char by char: a root block is most of a file.
        depth, pos, body = 1, match.end(), []
        for brace in _BRACE_RE.finditer(text, pos):
            if depth == 1:
                body.append(text[pos : brace.start()])
            depth += 1 if brace.group() == "{" else -1
            pos = brace.end()
            if depth == 0:
                break
        else:  # the file ends inside the block: the rest is the body's when at depth 1
            if depth == 1:
                body.append(text[pos:])
        yield "".join(body)


def _resolve(name: str, here: Path, tree: Path) -> Path | None:
    candidates = [here.parent / name]
    head, _, rest = name.partition("/")
    if head in _PREFIXES and rest:
        candidates.append(tree / _PREFIXES[head] / rest)
    candidates += [tree / d / name for d in DTS_DIRS]
    return next((c for c in candidates if c.is_file()), None)


@functools.cache
def root_properties(path: Path, tree: Path, _depth: int = 0) -> dict[str, list[str]]:
    """`model` and `compatible` of the root node as dtc would see them for this file."""
    props: dict[str, list[str]] = {}
    if _depth > 8:
        return props
    text = _COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
    first_root = _ROOT_RE.search(text)
    for include in _INCLUDE_RE.finditer(text):
        if first_root is not None and include.start() > first_root.start():
            continue  # an include inside a node brings that node's children, not the root's
        found = _resolve(include.group(1), path, tree)
        if found is not None:
            props.update(root_properties(found, tree, _depth + 1))
    for body in _root_bodies(text):
        for prop in _PROP_RE.finditer(body):
            props[prop.group(1)] = _STRING_RE.findall(prop.group(2))
    return props


def soc_of(compatible: list[str], boards: frozenset[str] = frozenset()) -> str | None:
    """The SoC's compatible string in a board's list (see the module's docstring); `boards`:
    board compatibles (board_compatibles()) that are never the SoC."""
    if len(compatible) < 2 or "," not in compatible[-1]:
        return None
    vendor = compatible[-1].split(",", 1)[0]
    candidates = [c for c in compatible[1:] if c.split(",", 1)[0] == vendor]
    return next((c for c in candidates if c not in boards), candidates[0])


@functools.cache  # one read of a tree's device trees per run (tests ask for it twice)
def board_compatibles(tree: Path) -> frozenset[str]:
    """Compatibles that name a board: the first of a list a .dts writes at its own root (two
    entries or more), unless a .dtsi writes it at its root as well (an SoC's .dtsi)."""
    boards: set[str] = set()
    socs: set[str] = set()
    for directory in DTS_DIRS:
        for path in sorted((tree / directory).rglob("*.dts*")):
            if path.suffix not in (".dts", ".dtsi"):
                continue  # .dtso overlays describe no board
            text = _COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
            for body in _root_bodies(text):
                for prop in _PROP_RE.finditer(body):
                    if prop.group(1) != "compatible":
                        continue
                    values = _STRING_RE.findall(prop.group(2))
                    if path.suffix == ".dtsi":
                        socs.update(values)
                    elif len(values) > 1:
                        boards.add(values[0])
    return frozenset(boards - socs)


def soc_name(soc_compatible: str) -> str:
    return _SUNXI_RE.sub("", soc_compatible.split(",", 1)[-1]).upper()


def boards_of(tree: Path) -> dict[str, dict[str, object]]:
    """file (relative to the tree) -> {model, compatible, soc} for every board .dts."""
    found: dict[str, dict[str, object]] = {}
    boards = board_compatibles(tree)
    for directory in DTS_DIRS:
        for path in sorted((tree / directory).rglob("*.dts")):
            props = root_properties(path, tree)
            model = (props.get("model") or [""])[0].strip()
            compatible = props.get("compatible") or []
            soc = soc_of(compatible, boards)
            if not model or soc is None:
                continue
            found[path.relative_to(tree).as_posix()] = {
                "model": model,
                "compatible": compatible,
                "soc": soc_name(soc),
                "soc_compatible": soc,
            }
    return found


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    rows: dict[tuple[str, tuple[str, ...]], dict[str, object]] = {}
    for series, root in trees.items():
        for file, info in boards_of(root).items():
            key = (str(info["model"]), tuple(info["compatible"]))  # type: ignore[arg-type]
            row = rows.setdefault(key, {**info, "series": [], "files": []})
            add_once(row, series=series, files=file)
    boards = sorted(rows.values(), key=lambda r: (str(r["model"]).lower(), str(r["files"])))
    head = {
        "about": (
            "Boards of the kernel's device trees: the root node's model and compatible list, "
            "and the SoC (see scripts/regen_board_socs.py). Generated; do not edit."
        ),
        "script": "scripts/regen_board_socs.py",
        "packages": used,
        "paths": list(GLOBS),
        "columns": list(COLUMNS),
    }
    write_rows(OUT, head, "boards", [[r[c] for c in COLUMNS] for r in boards])
    print(f"{len(boards)} boards -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
