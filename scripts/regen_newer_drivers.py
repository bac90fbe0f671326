#!/usr/bin/env python3
"""Regenerate resources/kernel_source/newer_drivers.json: the USB/PCI IDs a kernel newer than
the tables' (Debian's linux-source-7.2, trixie-backports) lists and neither 6.1 nor 6.12 does,
with the drivers that list them.

    python scripts/regen_newer_drivers.py          # obtains the source via kernel_source.py

drivers.json (regen_kernel_source.py) is read from 6.1 and 6.12 only, so an adapter a later
kernel added (the TP-Link Archer T2U PLUS, 2357:0120, rtw88's rtw8821au.c since 6.14; the
RTL8157, 0bda:8157, in r8152.c's rtl8152_table since 6.16) was in no table: no NIC was made of
its lsusb line, and no advice said which kernel has its driver. The same reader
(regen_kernel_source._drivers) reads the newer tree; only what is new is kept:

- "ids": "usb:vvvv:dddd" -> {driver: ["7.2"]} for the IDs no 6.1/6.12 driver lists;
- "drivers": the records of those IDs' drivers that 6.1/6.12 do not have (series ["7.2"]).

A driver renamed after 6.12 (rtw88's "rtw_8822bu" is KBUILD_MODNAME, "rtw88_8822bu", in 7.2:
same file, same bus) keeps its older name, so its new IDs join the driver the older tables know;
no ID the older tables bind gets a second driver. load_kernel_drivers() merges this file under
drivers.json.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "newer_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import NEWER, SERIES, obtain  # noqa: E402
from regen_kernel_source import _defines, _drivers, _hex4  # noqa: E402
from regen_tables import write_json  # noqa: E402

GLOBS = ("drivers/net/*", "drivers/staging/*", "include/linux/pci_ids.h", "include/linux/usb/*")
# Headers whose macros an ID table uses (r8152.c's USB_DEVICE(VENDOR_ID_TRENDNET, 0xe02c):
# include/linux/usb/r8152.h), read for the newer tree and the older trees' rows alike.
HEADERS = ("include/linux/usb/*.h",)
# An ID table's row in any of its spellings: "{ 0x10B7, 0x5900, PCI_ANY_ID, ...}" (3c59x.c in
# 6.12, which regen_kernel_source's _ID_RE does not read; 7.2 spells it PCI_DEVICE(0x10B7,
# 0x5900)), "PCI_DEVICE(PCI_VENDOR_ID_X, 0x...)", "USB_DEVICE(VENDOR_ID_REALTEK, 0x8156)". The
# vendor is a number or an upper-case macro, so a call's "(tp, 0x8157)" is no row.
_ROW_RE = re.compile(
    # a row may open with its comment (plx_pci.c's "/* Adlink PCI-7841/cPCI-7841 */")
    r"[({]\s*(?:/\*(?:[^*]|\*(?!/))*\*/\s*)*"
    r"(0[xX][0-9a-fA-F]{1,4}|[A-Z][A-Z0-9_]*)\s*,\s*(0[xX][0-9a-fA-F]{1,4}|[A-Z][A-Z0-9_]*)\b",
)


def old_rows(trees: list[Path], folder: str) -> set[str]:
    """ "vvvv:dddd" of every row-shaped pair in the older trees' copy of a driver's folder:
    an ID the newer reader finds but the older one missed (a spelling _ID_RE does not read)
    is not new."""
    rows: set[str] = set()
    for root in trees:
        here = root / folder
        files = sorted([*here.glob("*.c"), *here.glob("*.h")]) if here.is_dir() else []
        shared = [
            root / "include/linux/pci_ids.h",
            *sorted(p for g in HEADERS for p in root.glob(g)),
        ]
        table = {**_defines(shared), **_defines(files)}
        for path in files:
            for vendor, device in _ROW_RE.findall(
                path.read_text(encoding="utf-8", errors="replace")
            ):
                v, d = _hex4(vendor, table), _hex4(device, table)
                if v and d:
                    rows.add(f"{v}:{d}")
    return rows


def newer(
    older: dict[str, object],
    found: dict[str, dict[str, object]],
    listed: dict[str, set[str]],
    series: str,
    trees: list[Path],
) -> dict[str, object]:
    """What the newer tree adds to `older` (drivers.json's body): new IDs, their new drivers.
    An ID whose row the older trees' copy of its driver's folder already has is not new."""
    old_ids = older.get("ids", {})
    old_drivers = older.get("drivers", {})
    assert isinstance(old_ids, dict) and isinstance(old_drivers, dict)
    # A driver the newer tree registers under another name from the same file (rtw8822bu.c:
    # 6.12's .name "rtw_8822bu", 7.2's KBUILD_MODNAME "rtw88_8822bu") keeps the older name, so
    # its new IDs join the driver the older tables know and no device gets two drivers.
    old_names: dict[tuple[str, str], str] = {}
    for old_name, info in sorted(old_drivers.items()):
        for bus in info.get("buses", []):
            old_names.setdefault((str(info.get("file", "")), bus), old_name)
    rows: dict[str, set[str]] = {}
    ids: dict[str, dict[str, list[str]]] = {}
    for key, names in sorted(listed.items()):
        if key in old_ids:
            continue
        for name in sorted(names):
            file = str(found[name]["file"])
            folder = file.rsplit("/", 1)[0]
            if folder not in rows:
                rows[folder] = old_rows(trees, folder)
            if key.split(":", 1)[1] not in rows[folder]:
                known = name if name in old_drivers else old_names.get((file, key.split(":")[0]))
                ids.setdefault(key, {})[known or name] = [series]
    wanted = sorted({name for names in ids.values() for name in names} - set(old_drivers))
    drivers = {name: {**found[name], "series": [series]} for name in wanted}
    return {"drivers": drivers, "ids": ids}


def generate(
    versions: dict[str, str] | None = None,
) -> tuple[dict[str, object], dict[str, str]]:
    """The table's body and the package versions read: the newer tree's at apt's candidate
    (or the one pinned in `versions`), the older ones at drivers.json's (VERSION.json)."""
    older = json.loads((OUT.parent / "drivers.json").read_text(encoding="utf-8"))
    body: dict[str, object] = {}
    used: dict[str, str] = {}
    pins = json.loads((OUT.parent / "VERSION.json").read_text(encoding="utf-8"))["packages"]
    trees = [
        obtain(s, GLOBS, version=pins.get(f"linux-source-{s}")).root for s in SERIES
    ]  # the versions drivers.json was read from
    for series in NEWER:  # one newer series ("7.2"); a second would need its own rows
        package = f"linux-source-{series}"
        source = obtain(series, GLOBS, version=(versions or {}).get(package))
        used[package] = source.version
        found, listed, _firmware = _drivers(source.root, HEADERS)
        body = newer(older, found, listed, series, trees)
    return body, used


def main() -> int:
    body, versions = generate()
    write_json(
        OUT,
        {
            "script": "scripts/regen_newer_drivers.py",
            "packages": versions,
            "paths": list(GLOBS),
            **body,
        },
        sort_keys=True,
    )
    drivers, ids = body.get("drivers", {}), body.get("ids", {})
    assert isinstance(drivers, dict) and isinstance(ids, dict)
    print(f"{len(ids)} IDs, {len(drivers)} drivers new in {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
