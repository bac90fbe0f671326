#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usbnet_descriptions.json: the `description` of every
usbnet mini-driver's `struct driver_info` (drivers/net/usb/*.c).

    python scripts/regen_usbnet_descriptions.py    # obtains the source via kernel_source.py

Why: usbnet_get_drvinfo (drivers/net/usb/usbnet.c, 6.1 and 6.12) writes
`dev->driver_info->description` into the ethtool_drvinfo's fw_version, and the drivers that wrap
it (asix_get_drvinfo, dm9601, mcs7830, sr9800, sierra_net) keep it (aqc111 writes its firmware's
version over it); so `ethtool -i` of a
smsc95xx, cdc_ether or cdc_ncm NIC prints "firmware-version: smsc95xx USB 2.0 Ethernet" or
"CDC NCM (NO ZLP)": the mini-driver's name for the device class, not a firmware. The inventory
does not take such a line for the NIC's firmware. Source: Debian's linux-source-6.1 and -6.12 at
the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usbnet_descriptions.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import add_once, pinned_packages, write_json  # noqa: E402

GLOBS = ("drivers/net/usb/*",)
# `static const struct driver_info smsc95xx_info = {` ... `};`
_INFO_RE = re.compile(r"\bstruct\s+driver_info\s+(\w+)\s*=\s*\{(.*?)\n\}\s*;", re.S)
_DESC_RE = re.compile(r"\.description\s*=\s*\"((?:[^\"\\]|\\.)*)\"")
# usbnet_get_drvinfo itself must still write the description into fw_version
_WRITES_RE = re.compile(r"strscpy\s*\(\s*info->fw_version\s*,\s*dev->driver_info->description")


def descriptions(text: str) -> dict[str, str]:
    """driver_info name -> its description, for every driver_info initialised in `text`."""
    found: dict[str, str] = {}
    for m in _INFO_RE.finditer(text):
        desc = _DESC_RE.search(m.group(2))
        if desc is not None:
            found[m.group(1)] = desc.group(1)
    return found


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    found: dict[str, dict[str, list[str]]] = {}
    for series, root in trees.items():
        usbnet = (root / "drivers/net/usb/usbnet.c").read_text(encoding="utf-8")
        if not _WRITES_RE.search(usbnet):
            raise SystemExit(f"{series}: usbnet_get_drvinfo no longer writes the description")
        for path in sorted((root / "drivers/net/usb").glob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            for desc in descriptions(text).values():
                row = found.setdefault(desc, {"files": [], "series": []})
                rel = path.relative_to(root).as_posix()
                add_once(row, files=rel, series=series)
    write_json(
        OUT,
        {
            "about": (
                "The description of every usbnet mini-driver's struct driver_info, which "
                "usbnet_get_drvinfo (drivers/net/usb/usbnet.c) writes as ethtool -i's "
                "firmware-version; by scripts/regen_usbnet_descriptions.py. Generated; do "
                "not edit."
            ),
            "packages": used,
            "descriptions": found,
        },
        sort_keys=True,
    )
    print(f"{len(found)} usbnet driver_info descriptions -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
