#!/usr/bin/env python3
"""Regenerate resources/kernel_source/pci_revision_silicon.json: the silicon a driver binds by
PCI revision, from its own board table.

    python scripts/regen_pci_revision_silicon.py    # obtains the source via kernel_source.py

Why: atlantic's aq_pci_probe_get_hw_by_id (drivers/net/ethernet/aquantia/atlantic/
aq_pci_func.c) walks ``hw_atl_boards[]`` and takes the first row whose device ID matches and
whose revision is AQ_HWREV_ANY or ``pdev->revision`` (lspci's "(rev 01)"): device IDs 0x0001,
D100, D107, D108, D109 at revision 1 get ``hw_atl_ops_a0`` and the A0 capabilities (MTU at
most 8996, HW_ATL_A0_MTU_JUMBO), at revision 2 the B0's; the AQC1xx IDs take B1 at any
revision. pci.ids names the device, not its silicon, so the revision is what says "A0". The
silicon is the ops symbol's suffix (``hw_atl_ops_a0`` -> "A0"); rows of any revision are left
out (the ID alone says it). Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names; a row both series do not agree on is left out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "pci_revision_silicon.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import pinned_packages, write_json  # noqa: E402

ATLANTIC = "drivers/net/ethernet/aquantia/atlantic"
GLOBS = (f"*{ATLANTIC}/*",)
_DEFINE_RE = re.compile(r"^#define\s+(\w+)\s+(0x[0-9A-Fa-f]+|\d+)U?\b", re.M)
_ROW_RE = re.compile(r"\{\s*(AQ_DEVICE_ID_\w+)\s*,\s*(AQ_HWREV_\w+)\s*,\s*&(\w+)\s*,")


def rows(root: Path) -> dict[str, dict[str, str]]:
    """ "vendor:device" -> {revision as lspci prints it ("01"): silicon} of atlantic's
    hw_atl_boards[] (aq_pci_func.c), the revisions that pick one silicon only."""
    folder = root / ATLANTIC
    defines = {name: int(value, 0) for name, value in _DEFINE_RE.findall(
        (folder / "aq_common.h").read_text(encoding="utf-8", errors="replace"))}  # fmt: skip
    text = (folder / "aq_pci_func.c").read_text(encoding="utf-8", errors="replace")
    table = text[text.index("hw_atl_boards[] = {") :]
    table = table[: table.index("};")]
    vendor = defines["PCI_VENDOR_ID_AQUANTIA"]
    found: dict[str, dict[str, str]] = {}
    for device, revision, ops in _ROW_RE.findall(table):
        rev = defines[revision]
        suffix = re.search(r"_([a-z]\d)$", ops)
        if rev == 0 or suffix is None:  # AQ_HWREV_ANY: the ID alone says the silicon
            continue
        ids = f"{vendor:04x}:{defines[device]:04x}"
        found.setdefault(ids, {})[f"{rev:02x}"] = suffix.group(1).upper()
    return found


def table(trees: dict[str, Path]) -> dict[str, dict[str, dict[str, str]]]:
    """driver -> "vendor:device" -> {revision: silicon}, the rows every series agrees on."""
    first, *others = [rows(root) for root in trees.values()]
    agreed = {
        ids: {rev: chip for rev, chip in revs.items() if all(t.get(ids, {}).get(rev) == chip
                                                          for t in others)}
        for ids, revs in first.items()
    }  # fmt: skip
    return {"atlantic": {ids: revs for ids, revs in sorted(agreed.items()) if revs}}


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    drivers = table(trees)
    out = {
        "source": f"{ATLANTIC}/aq_pci_func.c hw_atl_boards[] (aq_pci_probe_get_hw_by_id)",
        "packages": used,
        "script": "scripts/regen_pci_revision_silicon.py",
        "drivers": drivers,
    }
    write_json(OUT, out, sort_keys=True)
    print(f"{OUT.relative_to(ROOT)}: {sum(len(r) for r in drivers['atlantic'].values())} revisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
