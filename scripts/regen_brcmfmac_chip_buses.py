#!/usr/bin/env python3
"""Regenerate resources/kernel_source/brcmfmac_chip_buses.json: for each chip brcmfmac can run,
the buses whose firmware table lists it.

    python scripts/regen_brcmfmac_chip_buses.py    # obtains the source via kernel_source.py

Why: brcmfmac drives SDIO, PCIe and USB chips, and each bus's probe asks for its firmware from
its own table (sdio.c brcmf_sdio_fwnames, pcie.c brcmf_pcie_fwnames, usb.c brcmf_usb_fwnames),
one `BRCMF_FW_ENTRY(<VENDOR>_CC_<N>_CHIP_ID, <revmask>, <name>)` row per chip; a chip no row of a
bus names gets no firmware there (firmware.c brcmf_fw_alloc_request(): "Unknown chip"). The chip
line brcmf_c_preinit_dcmds() prints ("Firmware: BCM43430/1 wl0: ...") names the chip as
brcmf_chip_name() writes it, "BCM%d/%u" or "BCM%x/%u", the same part number the macro's name
holds (brcm_hw_ids.h: BRCM_CC_43430_CHIP_ID 43430, BRCM_CC_4345_CHIP_ID 0x4345). So a chip the
tables list on one bus only is on that bus, though its line names no device. Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names; a chip's
buses are the union over both.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "brcmfmac_chip_buses.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
DIR = "drivers/net/wireless/broadcom/brcm80211/brcmfmac"
FILES = {"sdio.c": "sdio", "pcie.c": "pci", "usb.c": "usb"}
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_ENTRY_RE = re.compile(r"BRCMF_FW_ENTRY\(\s*[A-Z]+_CC_(\w+?)_CHIP_ID\s*,")


def chips_of(text: str) -> set[str]:
    """The part numbers a bus file's BRCMF_FW_ENTRY rows name ("43430", "4345")."""
    return set(_ENTRY_RE.findall(_COMMENT_RE.sub(" ", text)))


def build(trees: dict[str, Path]) -> dict[str, list[str]]:
    buses: dict[str, set[str]] = {}
    for _series, root in sorted(trees.items()):
        for name, bus in FILES.items():
            text = (root / DIR / name).read_text(encoding="utf-8", errors="replace")
            for chip in chips_of(text):
                buses.setdefault(chip, set()).add(bus)
    return {chip: sorted(buses[chip]) for chip in sorted(buses)}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    data: dict[str, object] = {
        "about": "brcmfmac chip part number -> the buses whose firmware table "
        "(BRCMF_FW_ENTRY rows of sdio.c, pcie.c, usb.c) lists it; see the script's docstring.",
        "chips": table,
    }
    write_table(OUT, "scripts/regen_brcmfmac_chip_buses.py", versions, data, sort_keys=False)
    single = sum(1 for b in table.values() if len(b) == 1)
    print(f"{OUT.relative_to(ROOT)}: {len(table)} chips, {single} on one bus")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
