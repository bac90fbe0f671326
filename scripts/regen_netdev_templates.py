#!/usr/bin/env python3
"""Regenerate resources/kernel_source/netdev_name_templates.json: the interface-name templates
(``"bnep%d"``) that only one kernel driver registers its interfaces with.

    python scripts/regen_netdev_templates.py    # obtains the source via kernel_source.py

Why: some links are known by an interface name alone, printed by a program that is not the
kernel: bluetoothd's "Added new connection: bnep0" (a Bluetooth PAN connection), a script's
"thunderbolt0". The kernel gives such names itself when the driver registers the interface
(net/bluetooth/bnep/core.c bnep_add_connection(): ``alloc_netdev(..., "bnep%d", ...)``;
drivers/net/thunderbolt: ``strcpy(dev->name, "thunderbolt%d")``), and a name only one driver
gives says which driver's interface it is. A template counts when one source directory under
drivers/net/ or net/ passes it as the name of an interface it allocates
(``alloc_netdev*(..., "x%d", ...)``, ``str*cpy(dev->name, "x%d")``) and no other directory does;
the shared defaults (``eth%d``, ``wlan%d``, ``usb%d``) and the Wi-Fi drivers' own (see
regen_wifi_ifnames.py) are left out. Read from Debian's linux-source-6.1 and -6.12 at the
versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "netdev_name_templates.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*", "net/*")
_NAMED = re.compile(
    r"\balloc_netdev\w*\s*\([^;\"]{0,160}?\"([a-z]{2,12})%d\""
    r"|\bstr\w*cpy\s*\([^,;]*->name\s*,\s*\"([a-z]{2,12})%d\""
)
_SHARED = frozenset({"eth", "wlan", "usb"})  # every kind's defaults (ether_setup, usbnet)


def _may_name(text: str) -> bool:
    """The literals every _NAMED match holds (C's substring search, before the slow regex)."""
    return '%d"' in text and ("alloc_netdev" in text or ("cpy" in text and "->name" in text))


def templates(root: Path) -> dict[str, set[str]]:
    """prefix → the files under drivers/net and net that name interfaces with it."""
    found: dict[str, set[str]] = {}
    for top in ("drivers/net", "net"):
        for path in sorted((root / top).rglob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if not _may_name(text):
                continue
            rel = path.relative_to(root).as_posix()
            for m in _NAMED.finditer(text):
                found.setdefault(m.group(1) or m.group(2), set()).add(rel)
    return found


def one_driver(trees: dict[str, Path]) -> dict[str, dict[str, list[str]]]:
    """prefix → files and series, for the templates one directory alone passes (not Wi-Fi's)."""
    found: dict[str, dict[str, list[str]]] = {}
    shared: set[str] = set(_SHARED)
    for series, root in sorted(trees.items()):
        for prefix, files in templates(root).items():
            entry = found.setdefault(prefix, {"files": [], "series": []})
            entry["files"] = sorted({*entry["files"], *files})
            entry["series"].append(series)
            if len({f.rsplit("/", 1)[0] for f in files}) > 1:  # in one series, one directory
                shared.add(prefix)  # (thunderbolt.c of 6.1 became thunderbolt/main.c in 6.12)
    return {
        p: e
        for p, e in sorted(found.items())
        if p not in shared and not any(f.startswith("drivers/net/wireless/") for f in e["files"])
    }


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = one_driver(trees)
    data: dict[str, object] = {
        "templates": table,
    }
    write_table(OUT, "scripts/regen_netdev_templates.py", versions, data, sort_keys=True)
    print(f"{len(table)} one-driver interface-name templates: {', '.join(table)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
