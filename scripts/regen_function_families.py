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
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "function_families.json"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_source import pinned_trees, write_table  # noqa: E402

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


def candidates() -> dict[str, str]:
    """Word -> the deepest directory holding every network driver and library so named."""
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    libraries = json.loads((KS / "library_modules.json").read_text(encoding="utf-8"))
    dirs: dict[str, set[str]] = {}
    for name, row in drivers.items():
        if row.get("buses") and row.get("file") and (word := word_of(name)):
            dirs.setdefault(word, set()).add(str(PurePosixPath(row["file"]).parent))
    for name, row in libraries["libraries"].items():
        if row.get("makefile") and (word := word_of(name)):
            dirs.setdefault(word, set()).add(str(PurePosixPath(row["makefile"]).parent))
    out = {}
    for word, found in dirs.items():
        family = _common(found)
        if family.count("/") + 1 >= _MIN_DEPTH and family.startswith("drivers/net/"):
            out[word] = family
    return out


def defined_under(tree: Path, words: set[str]) -> dict[str, set[str]]:
    """Word -> the directories of the .c files that define a function named `<word>_...`."""
    found: dict[str, set[str]] = {}
    for path in tree.rglob("*.c"):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        where = str(path.parent.relative_to(tree))
        for line in text.splitlines():
            if not line[:1].isalpha() or "(" not in line or line.rstrip().endswith(";"):
                continue
            m = _NAME.match(line)
            if m is None or "_" not in m.group(1):
                continue
            word = m.group(1).split("_", 1)[0]
            if word in words:
                found.setdefault(word, set()).add(where)
    return found


def families(trees: dict[str, Path]) -> dict[str, str]:
    """Word -> family directory, as read from every series' tree."""
    wanted = candidates()
    kept = dict(wanted)
    for tree in trees.values():
        for word, where in defined_under(tree, set(wanted)).items():
            if word not in kept:
                continue
            # the family is where all its functions are: mt76's word is mt7601u's too, so its
            # family is drivers/net/wireless/mediatek; one outside drivers/net/ drops it
            family = _common(where | {kept[word]})
            if family.count("/") + 1 >= _MIN_DEPTH and family.startswith("drivers/net/"):
                kept[word] = family
            else:
                kept.pop(word)
    return dict(sorted(kept.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    kept = families(trees)
    body = {
        "about": (
            "First words of function names that only one network driver family's source "
            "defines (every function `<word>_...` of the 6.1 and 6.12 trees lies under the "
            "family's directory), for a kernel trace's frames. Generated by "
            "scripts/regen_function_families.py."
        ),
        "families": kept,
    }
    write_table(OUT, "scripts/regen_function_families.py", versions, body, sort_keys=False)
    print(f"{len(kept)} of {len(candidates())} words kept -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
