#!/usr/bin/env python3
"""Regenerate resources/kernel_source/function_families.json: the first words of function names
that only one network driver family's source defines.

    python scripts/regen_function_families.py    # obtains the source via kernel_source.py

Why: a kernel trace names the driver it ran in by a frame's module (`[r8152]`) or by a function
named after its driver or library module (`bcmgenet_rx_refill`, `stmmac_open`). A family whose
functions carry a word that is no module's name is missed: ath10k's copy-engine code
(`ath10k_ce_alloc_src_ring`, in the library module ath10k_core) and mt76's transmit scheduler
(`mt76_txq_schedule`, the library mt76, built in or not). The word a family's functions share is
the first word (cut at "_") of its drivers' and libraries' names (drivers.json,
library_modules.json): "ath10k" of ath10k_pci, ath10k_core ...; its family directory is the
deepest directory holding the source of all of them (drivers/net/wireless/ath/ath10k). A word is
kept only when every function whose name starts with the word and "_", defined anywhere in the
kernel tree (a `.c` file's line that starts with a type and names a function before "(", not
ending in ";"), lies under one directory of drivers/net/ at least four deep, in 6.1 and in 6.12,
which is then the family's (mt76's functions are also mt7601u's: drivers/net/wireless/mediatek):
"mtk" is also drivers/net/wwan's mtk_t7xx's and "usb" the USB core's, so neither names one.
Words of fewer than three characters are not candidates. Read from Debian's linux-source-6.1
and -6.12 at the versions resources/kernel_source/VERSION.json names (the whole tree's C
sources).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "function_families.json"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_source import pinned_trees  # noqa: E402
from regen_tables import PINS, write_json  # noqa: E402

# every directory of C sources (a function of any of them may share a family's word)
GLOBS = (
    "arch/*", "block/*", "crypto/*", "drivers/*", "fs/*", "include/*", "init/*", "ipc/*",
    "kernel/*", "lib/*", "mm/*", "net/*", "security/*", "sound/*", "virt/*",
)  # fmt: skip
_NAME = re.compile(r"[A-Za-z_][\w \t*]*?\b([A-Za-z]\w*)\s*\(")
_MIN_WORD = 3
_WORD = re.compile(r"[a-z][a-z0-9]*")  # a C identifier's first word ("Marvell MCS Driver": none)
_MIN_DEPTH = 4  # drivers/net/<kind>/<family>: a shallower common directory is no family


def word_of(name: str) -> str | None:
    """The first word of a driver's, module's or function's name ("ath10k" of ath10k_pci)."""
    word = re.split(r"[_-]", name, maxsplit=1)[0]
    return word if len(word) >= _MIN_WORD and _WORD.fullmatch(word) else None


def _common(directories: set[str]) -> str:
    parts = [d.split("/") for d in sorted(directories)]
    out: list[str] = []
    for names in zip(*parts, strict=False):
        if len(set(names)) != 1:
            break
        out.append(names[0])
    return "/".join(out)


def _drivers() -> dict[str, dict[str, object]]:
    rows = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    return {str(k): v for k, v in rows.items()}


def words() -> set[str]:
    """Every first word of a network driver's or library module's name."""
    libraries = json.loads((KS / "library_modules.json").read_text(encoding="utf-8"))
    names = [n for n, row in _drivers().items() if row.get("buses")]
    return {w for n in [*names, *libraries["libraries"]] if (w := word_of(n))}


def candidates() -> dict[str, str]:
    """Word -> the deepest directory holding every network driver and library so named."""
    drivers = _drivers()
    libraries = json.loads((KS / "library_modules.json").read_text(encoding="utf-8"))
    dirs: dict[str, set[str]] = {}
    for name, row in drivers.items():
        if row.get("buses") and row.get("file") and (word := word_of(name)):
            dirs.setdefault(word, set()).add(str(PurePosixPath(str(row["file"])).parent))
    for name, row in libraries["libraries"].items():
        if row.get("makefile") and (word := word_of(name)):
            dirs.setdefault(word, set()).add(str(PurePosixPath(row["makefile"]).parent))
    out = {}
    for word, found in dirs.items():
        family = _common(found)
        if family.count("/") + 1 >= _MIN_DEPTH and family.startswith("drivers/net/"):
            out[word] = family
    return out


def defined_under(tree: Path, words: set[str]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Word -> the directories of the .c files that define a function named `<word>_...`, and
    its first two words ("mtk_rx") -> the files (relative to the tree) that define them."""
    found: dict[str, set[str]] = {}
    pairs: dict[str, set[str]] = {}
    for path in tree.rglob("*.c"):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        rel = path.relative_to(tree)
        where = str(rel.parent)
        for line in text.splitlines():
            if not line[:1].isalpha() or "(" not in line or line.rstrip().endswith(";"):
                continue
            m = _NAME.match(line)
            if m is None or "_" not in m.group(1):
                continue
            parts = m.group(1).split("_")
            if parts[0] in words:
                found.setdefault(parts[0], set()).add(where)
                if len(parts) > 2 and parts[1]:  # a word then another, then the rest
                    pairs.setdefault(f"{parts[0]}_{parts[1]}", set()).add(str(rel))
    return found, pairs


def _family(directories: set[str]) -> str | None:
    family = _common(directories)
    deep = family.count("/") + 1 >= _MIN_DEPTH and family.startswith("drivers/net/")
    return family if deep else None


def families(trees: dict[str, Path]) -> tuple[dict[str, str], dict[str, str]]:
    """(word or two words -> family directory, two words -> the one driver whose own file
    alone defines them), as read from every series' tree."""
    wanted = candidates()
    kept = dict(wanted)
    files: dict[str, set[str]] = {}
    for tree in trees.values():
        found, pairs = defined_under(tree, words())
        for pair, where in pairs.items():
            files.setdefault(pair, set()).update(where)
        for word, dirs in found.items():
            if word not in kept:
                continue
            # the family is where all its functions are: mt76's word is mt7601u's too, so its
            # family is drivers/net/wireless/mediatek; one outside drivers/net/ drops it
            family = _family(dirs | {kept[word]})
            if family is not None:
                kept[word] = family
            else:
                kept.pop(word)
    # a word of several families ("mtk": mtk_eth_soc.c's and wwan/t7xx's) names one by its
    # first two words where all their functions lie in one family ("mtk_rx"), and the driver
    # when they are all in that driver's own file (mtk_soc_eth's mtk_eth_soc.c)
    by_file = {str(row["file"]): name for name, row in _drivers().items() if row.get("buses")}
    drivers: dict[str, str] = {}
    for pair, where in files.items():
        if pair.split("_", 1)[0] in kept:
            continue
        family = _family({str(PurePosixPath(f).parent) for f in where})
        if family is None:
            continue
        kept[pair] = family
        if len(where) == 1 and (driver := by_file.get(next(iter(where)))):
            drivers[pair] = driver
    return dict(sorted(kept.items())), dict(sorted(drivers.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, PINS)
    kept, drivers = families(trees)
    table = {
        "generated": datetime.now(UTC).date().isoformat(),
        "script": "scripts/regen_function_families.py",
        "linux-source": versions,
        "about": (
            "First words (or, where a word is several families', first two words) of function "
            "names that only one network driver family's source defines (every such function "
            "of the 6.1 and 6.12 trees lies under the family's directory), for a kernel trace's "
            "frames; 'drivers': two words all of whose functions are in one driver's own file. "
            "Generated by scripts/regen_function_families.py."
        ),
        "families": kept,
        "drivers": drivers,
    }
    write_json(OUT, table)
    print(f"{len(kept)} of {len(candidates())} words kept -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
