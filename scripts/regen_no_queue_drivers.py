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


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    """file → its kind and the series whose source has it set the flag."""
    files: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for rel in sorted(setters(root)):
            entry = files.setdefault(rel, {"kind": kind_of(rel), "series": []})
            series_list = entry["series"]
            assert isinstance(series_list, list)
            series_list.append(series)
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
