#!/usr/bin/env python3
"""Regenerate resources/kernel_source/gadget_ether.json: what the USB gadget's Ethernet layer
(drivers/usb/gadget/function/u_ether.c, under every gadget: g_ether, g_multi, g_cdc, configfs
ecm/ncm/rndis/eem/subset functions) prints about the interface it registers, and the driver name
its interfaces report.

    python scripts/regen_gadget_ether.py    # obtains the source via kernel_source.py

Why: a board in USB device mode shows its link to the PC as ``usb0`` (or ``rndis0`` ...), named
only by u_ether's own lines: ``usb0: HOST MAC de:c1:fa:45:65:ac`` / ``usb0: MAC 3a:04:...``
(gether_setup_name() and gether_register_netdev() print them with INFO(), which 6.1's u_ether.c
defines as ``printk(level "%s: " fmt, (d)->net->name)``; 6.12 uses composite.h's INFO(), a
dev_info() on the gadget device that names no interface). ethtool reports every such interface's
driver as the literal eth_get_drvinfo() copies (``strscpy(p->driver, "g_ether", ...)`` in both).
Per series: the driver literal, whether INFO() puts the interface's name first, and the INFO()
formats u_ether prints that no other file under drivers/ or net/ prints (``"MAC %pM\\n"`` may be
others'; ``"HOST MAC %pM\\n"`` is u_ether's alone). Read from Debian's linux-source-6.1 and -6.12
at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "gadget_ether.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

FILE = "drivers/usb/gadget/function/u_ether.c"
GLOBS = ("drivers/*", "net/*")
_DRVINFO = re.compile(r"\beth_get_drvinfo\s*\([^)]*\)\s*\{(?P<body>.*?)\n\}", re.S)
_DRIVER = re.compile(r"\bstr\w*cpy\s*\(\s*\w+->driver\s*,\s*\"(?P<name>[^\"]+)\"")
# 6.1: "#define xprintk(d, level, fmt, args...) \ printk(level "%s: " fmt , (d)->net->name ..."
_IFACE_FIRST = re.compile(
    r"#define\s+xprintk\s*\([^)]*\)\s*\\\s*printk\s*\(\s*level\s+\"%s: \"\s*fmt\s*,"
    r"\s*\(d\)->net->name"
)
_OWN_INFO = re.compile(r"#define\s+INFO\s*\([^)]*\)\s*\\\s*xprintk\s*\(")
_INFO_CALL = re.compile(r"\bINFO\s*\(\s*\w+\s*,\s*\"(?P<fmt>(?:[^\"\\]|\\.)*)\"")


def series_facts(root: Path) -> dict[str, object]:
    """u_ether.c's driver literal, whether INFO() names the interface first, its INFO formats."""
    text = (root / FILE).read_text(encoding="utf-8", errors="replace")
    drvinfo = _DRVINFO.search(text)
    driver = _DRIVER.search(drvinfo.group("body")) if drvinfo else None
    iface_first = bool(_IFACE_FIRST.search(text) and _OWN_INFO.search(text))
    formats = sorted({m.group("fmt") for m in _INFO_CALL.finditer(text)})
    own = [f for f in formats if iface_first and _only_here(root, f)]
    return {
        "driver": driver.group("name") if driver else None,
        "iface_first": iface_first,
        "formats": [f.removesuffix("\\n") for f in own],
    }


def _only_here(root: Path, fmt: str) -> bool:
    """No other C file under drivers/ or net/ holds this format's string literal."""
    literal = f'"{fmt}"'
    for top in ("drivers", "net"):
        for path in (root / top).rglob("*.c"):
            if path.relative_to(root).as_posix() == FILE:
                continue
            if literal in path.read_text(encoding="utf-8", errors="replace"):
                return False
    return True


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    data: dict[str, object] = {
        "file": FILE,
        "series": {series: series_facts(root) for series, root in sorted(trees.items())},
    }
    write_table(OUT, "scripts/regen_gadget_ether.py", versions, data, sort_keys=True)
    for series, facts in data["series"].items():  # type: ignore[union-attr]
        print(series, facts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
