#!/usr/bin/env python3
"""Regenerate resources/kernel_source/wifi_ifname_templates.json: the interface-name templates
(``"mlan%d"``) that only Wi-Fi drivers register their interfaces with.

    python scripts/regen_wifi_ifnames.py    # obtains the source via kernel_source.py

Why: a Wi-Fi driver's own lines name its bus device (``mwifiex_sdio mmc2:0001:1: ...``) and
the interface may be named only by another subsystem's line (``IPv6: ADDRCONF(NETDEV_CHANGE):
mlan0: link becomes ready``). ``wlan%d`` says Wi-Fi by itself; the names some drivers give
(mwifiex's ``mlan%d``/``uap%d`` in main.c, libertas' ``msh%d``) do too, but only the source
says which. A template counts when a driver under drivers/net/wireless/ passes it as the name
of an interface it creates (``*add_virtual_intf(wiphy, "mlan%d", ...)``, ``alloc_netdev*(0,
"msh%d", ...)``, ``strcpy(dev->name, "rtap%d")``) and no other part of drivers/net/ does
(``eth%d``, ``wlan%d`` are every kind's). Read from Debian's linux-source-6.1 and -6.12 at the
versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "wifi_ifname_templates.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
_NAMED = re.compile(
    r"(?:\b\w*add_virtual_intf|\balloc_netdev\w*|\bieee80211_if_add)\s*\("
    r"[^;\"]{0,120}?\"([a-z]{2,8})%d\""
    r"|\bstr\w*cpy\s*\([^,;]*->name\s*,\s*\"([a-z]{2,8})%d\""
)


def _may_name(text: str) -> bool:
    """The literals every _NAMED match holds (C's substring search, before the slow regex)."""
    calls = "add_virtual_intf" in text or "alloc_netdev" in text or "ieee80211_if_add" in text
    return '%d"' in text and (calls or ("cpy" in text and "->name" in text))


def templates(root: Path) -> tuple[dict[str, set[str]], set[str]]:
    """(prefix → the wireless files naming interfaces with it, prefixes named elsewhere)."""
    wireless: dict[str, set[str]] = {}
    other: set[str] = set()
    for path in sorted((root / "drivers/net").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if not _may_name(text):
            continue
        rel = path.relative_to(root).as_posix()
        for m in _NAMED.finditer(text):
            prefix = m.group(1) or m.group(2)
            if rel.startswith("drivers/net/wireless/"):
                wireless.setdefault(prefix, set()).add(rel)
            else:
                other.add(prefix)
    return wireless, other


def wifi_only(trees: dict[str, Path]) -> dict[str, dict[str, list[str]]]:
    """prefix → files and series, for the templates only Wi-Fi drivers pass, from each tree."""
    found: dict[str, dict[str, list[str]]] = {}
    shared: set[str] = {"wlan", "eth"}  # every kind's defaults (net/wireless, ether_setup)
    for series, root in sorted(trees.items()):
        wireless, other = templates(root)
        shared |= other
        for prefix, files in wireless.items():
            entry = found.setdefault(prefix, {"files": [], "series": []})
            entry["files"] = sorted({*entry["files"], *files})
            entry["series"].append(series)
    return {p: e for p, e in sorted(found.items()) if p not in shared}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = wifi_only(trees)
    write_table(
        OUT, "scripts/regen_wifi_ifnames.py", versions, {"templates": table}, sort_keys=True
    )
    print(f"{len(table)} Wi-Fi-only interface-name templates: {', '.join(table)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
