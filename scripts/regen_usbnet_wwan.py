#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usbnet_wwan_drivers.json: the usbnet drivers whose every
`struct driver_info` sets FLAG_WWAN, i.e. drivers that only ever drive mobile-network modems.

    python scripts/regen_usbnet_wwan.py    # obtains the source via kernel_source.py

Why: usbnet names an interface "wwan%d" when its driver_info has FLAG_WWAN (drivers/net/usb/
usbnet.c usbnet_probe(); include/linux/usb/usbnet.h: `FLAG_WWAN 0x0400 /* use "wwan%d" names */`).
A driver all of whose driver_infos carry it (huawei_cdc_ncm, kalmia, lg-vl600, qmi_wwan,
cdc_mbim, sierra_net) is a modem's driver whatever its MODULE_DESCRIPTION says ("USB CDC NCM
host driver with encapsulated protocol support" names no modem); a driver with both kinds
(cdc_ether's wwan_info beside its Ethernet ones, cdc_ncm's) is not listed: its devices may be
either. The driver's name is its `struct usb_driver`'s `.name`. Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names; a driver
counts when every series that has it agrees.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usbnet_wwan_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/usb/*",)
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_INFO_RE = re.compile(r"struct\s+driver_info\s+\w+\s*=\s*\{(.*?)\n\s*\}\s*;", re.S)
_FLAGS_RE = re.compile(r"\.flags\s*=\s*([^,;]*(?:\|[^,;]*)*)", re.S)
_USB_DRIVER_RE = re.compile(
    r"struct\s+usb_driver\s+\w+\s*=\s*\{[^}]*?\.name\s*=\s*\"([\w-]+)\"", re.S
)


def wwan_only(text: str) -> str | None:
    """The usb_driver name of a C file whose every driver_info sets FLAG_WWAN, else None."""
    text = _COMMENT_RE.sub(" ", text)
    infos = _INFO_RE.findall(text)
    name = _USB_DRIVER_RE.search(text)
    if not infos or name is None:
        return None
    for body in infos:
        flags = _FLAGS_RE.search(body)
        if flags is None or "FLAG_WWAN" not in flags.group(1):
            return None
    return name.group(1)


def build(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    mixed: set[str] = set()
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers" / "net" / "usb").glob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            rel = path.relative_to(root).as_posix()
            name = wwan_only(text)
            if name is None:
                if m := _USB_DRIVER_RE.search(_COMMENT_RE.sub(" ", text)):
                    mixed.add(m.group(1))  # in this series its devices may be Ethernet ones
                continue
            entry = found.setdefault(name, {"file": rel, "series": []})
            series_list = entry["series"]
            assert isinstance(series_list, list)
            series_list.append(series)
    return {name: found[name] for name in sorted(found) if name not in mixed}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    write_table(OUT, "scripts/regen_usbnet_wwan.py", versions, {"drivers": table}, sort_keys=False)
    print(f"{OUT.relative_to(ROOT)}: {len(table)} drivers: {', '.join(table)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
