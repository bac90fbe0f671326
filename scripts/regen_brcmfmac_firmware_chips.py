#!/usr/bin/env python3
"""Regenerate resources/kernel_source/brcmfmac_firmware_chips.json: the chip each brcmfmac
firmware file name is for, from the driver's own firmware tables.

    python scripts/regen_brcmfmac_firmware_chips.py    # obtains the source via kernel_source.py

Why: a log often names a Broadcom Wi-Fi chip only through the files brcmfmac asks for ("Direct
firmware load for brcm/brcmfmac4387c2-pcie.apple,maldives-X3.bin failed with error -2", the
journal of an Apple Silicon Mac, corpus/arml68_macbook_pro_asahi_70_*). Each bus file (sdio.c,
pcie.c, usb.c) names a base per firmware with `BRCMF_FW_DEF(<name>, "<base>")` or
`BRCMF_FW_CLM_DEF(...)` (firmware.h: the path BRCMF_FW_DEFAULT_PATH "brcm/" then the base) and
gives it to chips with `BRCMF_FW_ENTRY(<VENDOR>_CC_<N>_CHIP_ID, <revmask>, <name>)`;
firmware.c brcmf_fw_alloc_request() asks for "<base>.<board>.bin", "<base>.bin", "<base>.txt"
... so a file whose name is a base followed by "." is that base's chip. The chip is written
as brcmf_chip_name() prints it, "BCM" and the part number the macro's name holds
(brcm_hw_ids.h: BRCM_CC_4387_CHIP_ID 0x4387 -> "BCM4387/7"). Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "brcmfmac_firmware_chips.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
DIR = "drivers/net/wireless/broadcom/brcm80211/brcmfmac"
FILES = {"sdio.c": "sdio", "pcie.c": "pci", "usb.c": "usb"}
PATH = "brcm/"  # firmware.h BRCMF_FW_DEFAULT_PATH
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEF_RE = re.compile(r'BRCMF_FW(?:_CLM)?_DEF\(\s*(\w+)\s*,\s*"([\w.-]+)"\s*\)')
_ENTRY_RE = re.compile(r"BRCMF_FW_ENTRY\(\s*[A-Z]+_CC_(\w+?)_CHIP_ID\s*,\s*\w+\s*,\s*(\w+)\s*\)")


def bases_of(text: str) -> dict[str, set[str]]:
    """{firmware base path: chip part numbers} of one bus file's tables."""
    code = _COMMENT_RE.sub(" ", text)
    named = {name: PATH + base for name, base in _DEF_RE.findall(code)}
    out: dict[str, set[str]] = {}
    for part, name in _ENTRY_RE.findall(code):
        if name in named:
            out.setdefault(named[name], set()).add(part)
    return out


def build(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    parts: dict[str, set[str]] = {}
    where: dict[str, tuple[str, str]] = {}  # base -> (bus file, bus)
    series_of: dict[str, list[str]] = {}
    for series, root in sorted(trees.items()):
        for name, bus in FILES.items():
            text = (root / DIR / name).read_text(encoding="utf-8", errors="replace")
            for base, found in bases_of(text).items():
                parts.setdefault(base, set()).update(found)
                where.setdefault(base, (name, bus))
                if series not in series_of.setdefault(base, []):
                    series_of[base].append(series)
    return {
        base: {
            "chip": " or ".join(f"BCM{p}" for p in sorted(parts[base])),
            "bus": where[base][1],
            "file": f"{DIR}/{where[base][0]}",
            "series": series_of[base],
        }
        for base in sorted(parts)
    }


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    data: dict[str, object] = {
        "about": "brcmfmac firmware base name -> the chip(s) its BRCMF_FW_ENTRY rows give it "
        "and the bus whose table holds it (sdio.c, pcie.c, usb.c); see the script's docstring.",
        "bases": table,
    }
    write_table(OUT, "scripts/regen_brcmfmac_firmware_chips.py", versions, data, sort_keys=False)
    print(f"{OUT.relative_to(ROOT)}: {len(table)} firmware bases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
