#!/usr/bin/env python3
"""Regenerate resources/kernel_source/pci_id_macros.json: the macro each network driver's PCI
ID table names a device ID by, per driver directory.

    python scripts/regen_pci_id_macros.py    # obtains the source via kernel_source.py

Why: pci.ids names some IDs by the product they were sold as, not the chip: 8086:3101 is
"Killer E3100X 2.5 Gigabit Ethernet Controller" (pci.ids 2025.06.09), which igc's table binds as
IGC_DEV_ID_I225_K2 (igc_hw.h, igc_main.c igc_pci_tbl[]): the kernel's own name says it is an
I225. catalog.driver_chips asks this table before it counts such an ID as another chip.

An entry is a `PCI_VDEVICE(VENDOR, MACRO)` or `PCI_DEVICE(PCI_VENDOR_ID_X, MACRO)` row of a
drivers/net file whose MACRO a `#define MACRO 0xHHHH` of the same directory gives; the table maps
that directory to {device ID (4 hex digits, lower case): MACRO}. Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names; where the
two differ for one ID the later series' macro is kept.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "pci_id_macros.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
_ROW = re.compile(r"\bPCI_V?DEVICE\s*\(\s*\w+\s*,\s*([A-Z][A-Z0-9_]+)\s*\)")
_DEFINE = re.compile(
    r"^#\s*define\s+([A-Z][A-Z0-9_]+)\s+\(?0x([0-9A-Fa-f]{1,4})\)?\s*(?:/[*/].*)?$", re.M
)


def directory_macros(files: list[tuple[str, str]]) -> dict[str, str]:
    """{device ID: macro} of one directory's files ((name, text) pairs): the macros its PCI
    ID tables use that the directory defines as a 16-bit number."""
    defined: dict[str, str] = {}
    used: set[str] = set()
    for _name, text in files:
        defined.update((m.group(1), m.group(2).lower().zfill(4)) for m in _DEFINE.finditer(text))
        used.update(m.group(1) for m in _ROW.finditer(text))
    return {defined[m]: m for m in sorted(used) if m in defined}


def table(trees: dict[str, Path]) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for _series, root in sorted(trees.items()):  # 6.1, then 6.12 over it
        base = root / "drivers/net"
        for folder in sorted({p.parent for p in base.rglob("*.[ch]")}):
            files = [
                (p.name, p.read_text(encoding="utf-8", errors="replace"))
                for p in sorted(folder.glob("*.[ch]"))
            ]
            macros = directory_macros(files)
            if macros:
                found.setdefault(folder.relative_to(root).as_posix(), {}).update(macros)
    return {k: dict(sorted(v.items())) for k, v in sorted(found.items())}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    dirs = table(trees)
    write_table(OUT, "scripts/regen_pci_id_macros.py", versions, {"dirs": dirs}, sort_keys=True)
    print(f"{sum(len(v) for v in dirs.values())} PCI device IDs by macro in {len(dirs)} folders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
