#!/usr/bin/env python3
"""Regenerate resources/kernel_source/tg3_asic_revs.json: the ASIC revisions tg3 knows, by the
value its probe banner prints.

    python scripts/regen_tg3_asic_revs.py    # obtains the source via kernel_source.py

Why: tg3's probe names no chip in words; it prints the chip's revision id
("tg3 0004:01:00.1 eth1: Tigon3 [partno(BCM95719) rev 5719001] (PCI Express) MAC address ...",
drivers/net/ethernet/broadcom/tg3.c tg3_init_one(): netdev_info(dev, "Tigon3 [partno(%s) rev
%04x] (%s) MAC address %pM\\n", ..., tg3_chip_rev_id(tp), ...)), whose ASIC revision is the id
shifted right by 12 (tg3.h: `#define tg3_asic_rev(tp) ((tp)->pci_chip_rev_id >> 12)`), and
tg3.h names each ASIC revision (`#define ASIC_REV_5719 0x5719`): that names the chip, BCM5719,
or its family where several chips share an ASIC revision (the BCM5788 reports ASIC_REV_5705), so
the inventory reads it below a listing's or the IDs' name.
The part number in the same line is the board's (a vendor's FRU number on OEM cards: IBM's
"00RX892"), never the chip's.

Read from Debian's linux-source-6.1 and -6.12 (the versions resources/kernel_source/VERSION.json
names): every `#define ASIC_REV_<name> 0x<value>` of tg3.h whose name is a chip number (not
ASIC_REV_USE_PROD_ID_REG, the marker that the id is read from another register), the shift of
tg3_asic_rev(), and the banner's format in tg3.c (both checked to be as above).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "tg3_asic_revs.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
HEADER = "drivers/net/ethernet/broadcom/tg3.h"
SOURCE = "drivers/net/ethernet/broadcom/tg3.c"
BANNER = "Tigon3 [partno(%s) rev %04x] (%s) MAC address %pM\\n"
_REV = re.compile(r"^#define\s+ASIC_REV_(\d+)\s+0x([0-9a-fA-F]+)\s*$", re.M)
_SHIFT = re.compile(r"#define tg3_asic_rev\(tp\)\s*\\\s*\(\(tp\)->pci_chip_rev_id >> (\d+)\)")


def revs_in(header: str) -> dict[str, str]:
    """ASIC revision value ("0x5719", lower case) -> chip number ("5719")."""
    return {f"0x{value.lower()}": name for name, value in _REV.findall(header)}


def shift_in(header: str) -> int:
    if (m := _SHIFT.search(header)) is None:
        raise SystemExit(f"tg3_asic_rev() not found in {HEADER}")
    return int(m.group(1))


def table(trees: dict[str, Path]) -> tuple[int, dict[str, dict[str, object]]]:
    found: dict[str, dict[str, object]] = {}
    shifts = set()
    for series, root in sorted(trees.items()):
        header = (root / HEADER).read_text(encoding="utf-8")
        if BANNER not in (root / SOURCE).read_text(encoding="utf-8"):
            raise SystemExit(f"the banner's format is not in {series}'s {SOURCE}")
        shifts.add(shift_in(header))
        for value, name in revs_in(header).items():
            row = found.setdefault(value, {"asic": name, "chip": f"BCM{name}", "series": []})
            if row["asic"] != name:
                raise SystemExit(f"{value}: ASIC_REV_{row['asic']}, then ASIC_REV_{name}")
            series_list = row["series"]
            assert isinstance(series_list, list)
            series_list.append(series)
    if len(shifts) != 1:
        raise SystemExit(f"tg3_asic_rev() shifts differ: {sorted(shifts)}")
    return shifts.pop(), dict(sorted(found.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    shift, revs = table(trees)
    data: dict[str, object] = {
        "source": f"{HEADER} ASIC_REV_* and tg3_asic_rev(); {SOURCE} tg3_init_one()'s banner",
        "driver": "tg3",
        # the banner, up to its revision: "Tigon3 [partno(%s) rev %04x]"
        "message": "Tigon3 [partno(",
        "rev_marker": ") rev ",
        "shift": shift,
        "revs": revs,
    }
    write_table(OUT, "scripts/regen_tg3_asic_revs.py", versions, data, sort_keys=True)
    print(f"{len(revs)} tg3 ASIC revisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
