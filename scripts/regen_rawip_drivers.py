#!/usr/bin/env python3
"""Regenerate resources/kernel_source/rawip_drivers.json: the network drivers whose
net_device is a raw-IP link (`dev->type = ARPHRD_RAWIP`), i.e. a modem's data path.

    python scripts/regen_rawip_drivers.py    # obtains the source via kernel_source.py

Why: a raw-IP interface carries IP packets with no link-layer header (include/uapi/linux/
if_arp.h: `#define ARPHRD_RAWIP 0x0207 /* Raw IP */`). In drivers/net only the modems' data
paths set it: Qualcomm's IPA (drivers/net/ipa/ipa_modem.c ipa_modem_netdev_setup()), MHI's
mhi_net, the WWAN drivers and rmnet's virtual devices. So a NIC of such a driver is a
cellular modem's interface whatever its MODULE_DESCRIPTION says ("Qualcomm IP Accelerator
device driver" names no modem). A C file that sets it belongs to the driver of drivers.json
whose file it is, else to the one driver whose file is in the same directory (ipa_modem.c:
ipa, whose struct platform_driver is in ipa_main.c); a directory of several drivers, or
drivers/net itself, names none. Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "rawip_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402
from regen_tables import add_once  # noqa: E402

GLOBS = ("drivers/net/*",)
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_RAWIP_RE = re.compile(r"->\s*type\s*=\s*ARPHRD_RAWIP\b")


def sets_rawip(text: str) -> bool:
    """The C text gives a net_device the raw-IP type (`ndev->type = ARPHRD_RAWIP;`)."""
    return bool(_RAWIP_RE.search(_COMMENT_RE.sub(" ", text)))


def owner(rel: str, files: dict[str, list[str]]) -> str | None:
    """The driver of drivers.json whose file this is, else the one driver of its directory."""
    if len(by_file := files.get(rel, [])) == 1:
        return by_file[0]
    folder = str(PurePosixPath(rel).parent)
    if folder == "drivers/net":
        return None
    near = sorted(
        {d for f, ds in files.items() if str(PurePosixPath(f).parent) == folder for d in ds}
    )
    return near[0] if len(near) == 1 else None


def build(trees: dict[str, Path], drivers: dict[str, dict[str, object]]) -> dict[str, object]:
    files: dict[str, list[str]] = {}
    for name, row in drivers.items():
        files.setdefault(str(row.get("file")), []).append(name)
    found: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers" / "net").rglob("*.c")):
            if not sets_rawip(path.read_text(encoding="utf-8", errors="replace")):
                continue
            rel = path.relative_to(root).as_posix()
            if (name := owner(rel, files)) is None:
                continue  # rmnet_vnd.c: a virtual device of rtnl_link_ops, no driver of the table
            entry = found.setdefault(name, {"files": [], "series": []})
            add_once(entry, files=rel, series=series)
    return {name: found[name] for name in sorted(found)}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    table = build(trees, drivers)
    write_table(
        OUT, "scripts/regen_rawip_drivers.py", versions, {"drivers": table}, sort_keys=False
    )
    print(f"{OUT.relative_to(ROOT)}: {len(table)} drivers: {', '.join(table)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
