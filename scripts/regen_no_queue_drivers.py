#!/usr/bin/env python3
"""Regenerate resources/kernel_source/no_queue_drivers.json: the kernel files whose network
devices get ``qdisc noqueue`` by default, and which of them drive hardware.

    python scripts/regen_no_queue_drivers.py    # obtains the source via kernel_source.py

Why: ``ip link`` prints each device's qdisc. A device whose driver sets IFF_NO_QUEUE, or leaves
``tx_queue_len`` 0 (alloc_netdev_mqs() in net/core/dev.c turns that into IFF_NO_QUEUE), gets
``noqueue`` (attach_one_default_qdisc() in net/sched/sch_generic.c); every other device gets the
default qdisc (pfifo_fast, fq_codel) or ``mq``. The drivers that do are the software ones
(bridge, veth, VLAN, macvlan, VXLAN, bonding, team, WireGuard, dummy ...) and three kinds that
stand for hardware: Wi-Fi interfaces (net/mac80211/iface.c, hostap), DSA's switch ports
(net/dsa) and a few Ethernet drivers' representor/management ports (drivers/net/ethernet).
sbctune.inventory.nic_kind.software_device reads ``qdisc noqueue`` as software unless the
device is Wi-Fi, stacked on another device (a DSA port), or shown as hardware by another
source; tests/unit/test_no_queue_drivers.py keeps the table and that rule in step.
For each software file, also the driver name its get_drvinfo writes (``ethtool -i``'s
"driver:": vlan_ethtool_get_drvinfo's vlan_fullname "802.1Q VLAN Support", br_getinfo's
"bridge" ...), resolved from a string literal, a #define or a const char[] of the file or its
directory: a device that answers with one is software whatever its name (audit 43: a VLAN named
vlan10, printed vlan10@eth0 as a DSA port is, read as a switch port).
Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "no_queue_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*", "net/*")
_SETS = re.compile(r"priv_flags\s*\|?=[^;]*\bIFF_NO_QUEUE\b|->tx_queue_len\s*=\s*0\s*;")
_MECHANISM = ("net/core/", "net/sched/")  # the rule itself, not a driver
# The kinds that stand for hardware, by where their source lives (the rest are software).
_HARDWARE = {
    "net/mac80211/": "wifi",
    "drivers/net/wireless/": "wifi",  # hostap's Prism2 ports; mac80211_hwsim's are Wi-Fi too
    "net/dsa/": "switch_port",
    "drivers/net/ethernet/": "ethernet_port",
}


def kind_of(rel: str) -> str:
    for prefix, kind in _HARDWARE.items():
        if rel.startswith(prefix):
            return kind
    return "software"


def setters(root: Path) -> set[str]:
    found: set[str] = set()
    for top in ("drivers/net", "net"):
        for path in sorted((root / top).rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith(_MECHANISM):
                continue
            if _SETS.search(path.read_text(encoding="utf-8", errors="replace")):
                found.add(rel)
    return found


_OPS = re.compile(r"\.get_drvinfo\s*=\s*(\w+)")
_COPY = re.compile(
    r"\b(?:strscpy|strlcpy|strncpy|strcpy)\s*\(\s*\w+(?:->|\.)driver\s*,\s*([^,;]+?)\s*[,)]"
)


def _body(text: str, function: str) -> str | None:
    """The body of `function` (its braces matched), or None."""
    found = re.search(r"\n(?:static\s+)?void\s+" + function + r"\s*\(", text)
    if not found:
        return None
    start = text.find("{", found.end())
    depth = 0
    for at in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0 and text[at] == "}":
            return text[start:at]
    return None


def _string(token: str, path: Path) -> str | None:
    """A string literal as is; a name through a #define or const char[] of the file itself,
    then of the other .c/.h files of its directory (vlan_fullname is in net/8021q/vlan.c)."""
    literal = re.fullmatch(r'"([^"]*)"', token)
    if literal:
        return literal.group(1)
    if not re.fullmatch(r"\w+", token):
        return None
    define = re.compile(r"#define\s+" + token + r'\s+"([^"]*)"')
    array = re.compile(r"\b" + token + r'\s*\[\s*\]\s*=\s*"([^"]*)"')
    others = sorted(p for p in path.parent.glob("*.[ch]") if p != path)
    for candidate in [path, *others]:
        text = candidate.read_text(encoding="utf-8", errors="replace")
        found = define.search(text) or array.search(text)
        if found:
            return found.group(1)
    return None


def drvinfo_name(root: Path, rel: str) -> str | None:
    """The driver name the file's get_drvinfo writes, or None (none, or not a plain string)."""
    path = root / rel
    text = path.read_text(encoding="utf-8", errors="replace")
    for function in sorted(set(_OPS.findall(text))):
        body = _body(text, function)
        copy = _COPY.search(body or "")
        if copy:
            return _string(copy.group(1).strip(), path)
    return None


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    """file → its kind and the series whose source has it set the flag (and, for a software
    file, the driver name its get_drvinfo writes, where all those series agree on one)."""
    files: dict[str, dict[str, object]] = {}
    names: dict[str, set[str | None]] = {}
    for series, root in sorted(trees.items()):
        for rel in sorted(setters(root)):
            entry = files.setdefault(rel, {"kind": kind_of(rel), "series": []})
            series_list = entry["series"]
            assert isinstance(series_list, list)
            series_list.append(series)
            if entry["kind"] == "software":
                names.setdefault(rel, set()).add(drvinfo_name(root, rel))
    for rel, found in names.items():
        if len(found) == 1 and None not in found:
            files[rel]["drvinfo"] = found.pop()
    return dict(sorted(files.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    files = table(trees)
    write_table(
        OUT, "scripts/regen_no_queue_drivers.py", versions, {"files": files}, sort_keys=True
    )
    kinds: dict[str, int] = {}
    for entry in files.values():
        kinds[str(entry["kind"])] = kinds.get(str(entry["kind"]), 0) + 1
    print(f"{len(files)} files set IFF_NO_QUEUE or tx_queue_len 0: {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
