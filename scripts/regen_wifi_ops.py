#!/usr/bin/env python3
"""Regenerate resources/kernel_source/wifi_ops.json: the functions each Wi-Fi driver hands
cfg80211 or mac80211 as callbacks, by the file that defines the ops table.

    python scripts/regen_wifi_ops.py    # obtains the source via kernel_source.py

Why: a Wi-Fi driver's callbacks run only on a wiphy it registered, that is on a device it
drives: cfg80211 calls `struct cfg80211_ops` members through its rdev_*() wrappers
(net/wireless/rdev-ops.h) for a registered wiphy, mac80211 calls `struct ieee80211_ops`
members through drv_*() (net/mac80211/driver-ops.h) for a registered hw. So a device-less line
a callback prints ("brcmfmac: brcmf_cfg80211_set_power_mgmt: power save enabled", 4.x/5.x
cfg80211.c brcmf_info(), which prefixes the function's name) says that driver has a device,
whatever the message's level.

A function is taken from a designated initializer `.member = function,` inside `static const
struct cfg80211_ops NAME = { ... };` or `struct ieee80211_ops` of a drivers/net/wireless file,
with the file that defines the table. Read from Debian's linux-source-6.1 and -6.12 at the
versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "wifi_ops.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/wireless/*",)
_TABLE = re.compile(
    r"\bstruct\s+(cfg80211_ops|ieee80211_ops)\s+\w+\s*=\s*\{(?P<body>[^{}]*)\}\s*;", re.S
)
_MEMBER = re.compile(r"\.\s*\w+\s*=\s*([A-Za-z_]\w*)\s*,?")


def ops_in(text: str) -> dict[str, str]:
    """function -> the ops struct type, for every callback of the tables this file defines."""
    if "_ops" not in text:
        return {}
    found: dict[str, str] = {}
    for table in _TABLE.finditer(text):
        for member in _MEMBER.finditer(table.group("body")):
            if member.group(1) not in ("NULL", "true", "false"):
                found.setdefault(member.group(1), table.group(1))
    return found


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers/net/wireless").rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            for function, ops in sorted(ops_in(text).items()):
                entry = found.setdefault(function, {"file": rel, "ops": ops, "series": []})
                series_list = entry["series"]
                assert isinstance(series_list, list)
                if series not in series_list:
                    series_list.append(series)
    return dict(sorted(found.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    functions = table(trees)
    write_table(
        OUT, "scripts/regen_wifi_ops.py", versions, {"functions": functions}, sort_keys=True
    )
    print(f"{len(functions)} Wi-Fi callback functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
