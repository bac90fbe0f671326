#!/usr/bin/env python3
"""Regenerate resources/kernel_source/companion_drivers.json: the second PCI driver a network
driver's module registers under its own name plus a suffix, for the other host interface of
the same card.

    python scripts/regen_companion_drivers.py    # obtains the source via kernel_source.py

Why: MediaTek's Wi-Fi 6/7 cards with two PCIe links (MT7915 with its hif2, MT7996/MT7992) show
up as two PCI functions. The module registers two drivers in one file: `mt7996_pci_driver`
named KBUILD_MODNAME (mt7996e) for the card, and `mt7996_hif_driver` named KBUILD_MODNAME
"_hif" (mt7996e_hif) for the second link (drivers/net/wireless/mediatek/mt76/mt7996/pci.c; its
probe, mt7996_pci_probe(), only queues that device for the card's own probe to take, with
mt7996_pci_add_hif2()). So "mt7996e_hif 0002:01:00.0: enabling bus mastering" is the same
card's second link, not another NIC. Read: every `struct pci_driver NAME = { .name =
KBUILD_MODNAME "<suffix>" ...}` of a C file under drivers/net/ that also registers a
`struct pci_driver` named KBUILD_MODNAME alone, that file being a driver of drivers.json (its
module name); the companion is that name plus the suffix. Debian's linux-source-6.1 and -6.12,
at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "companion_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# struct pci_driver mt7996_hif_driver = { .name = KBUILD_MODNAME "_hif", ... };
_STRUCT_RE = re.compile(r"\bstruct\s+pci_driver\s+(\w+)\s*=\s*\{(.*?)\n\};", re.S)
_NAME_RE = re.compile(r"\.name\s*=\s*KBUILD_MODNAME\s*(?:\"(\w+)\")?\s*,")


def companions(text: str) -> dict[str, str]:
    """suffix -> struct of each PCI driver named KBUILD_MODNAME plus a suffix, when the same
    text also registers one named KBUILD_MODNAME alone; else nothing."""
    plain = False
    found: dict[str, str] = {}
    for struct, body in _STRUCT_RE.findall(_COMMENT_RE.sub(" ", text)):
        name = _NAME_RE.search(body)
        if name is None:
            continue
        if name.group(1):
            found[name.group(1)] = struct
        else:
            plain = True
    return found if plain else {}


def build(trees: dict[str, Path], drivers: dict[str, dict[str, object]]) -> dict[str, object]:
    by_file: dict[str, list[str]] = {}
    for name, row in drivers.items():
        if "pci" in (row.get("buses") or []):
            by_file.setdefault(str(row.get("file")), []).append(name)
    found: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for rel, names in sorted(by_file.items()):
            path = root / rel
            if len(names) != 1 or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for suffix, struct in companions(text).items():
                entry = found.setdefault(
                    names[0] + suffix,
                    {"card_driver": names[0], "file": rel, "struct": struct, "series": []},
                )
                series_list = entry["series"]
                assert isinstance(series_list, list)
                series_list.append(series)
    return {name: found[name] for name in sorted(found)}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    table = build(trees, drivers)
    write_table(
        OUT, "scripts/regen_companion_drivers.py", versions, {"drivers": table}, sort_keys=False
    )
    print(f"{OUT.relative_to(ROOT)}: {len(table)} companion drivers: {', '.join(table)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
