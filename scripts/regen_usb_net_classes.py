#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usb_net_classes.json: the USB interface classes
(class/subclass/protocol) that the kernel's USB network drivers bind by class alone.

    python scripts/regen_usb_net_classes.py    # obtains the source via kernel_source.py

Why: a device that offers a network function by its class (an Android phone's RNDIS tethering
as `Cls=ef(misc ) Sub=04 Prot=01`, a CDC ECM/NCM/MBIM modem or gadget) is a network device
whether or not a driver bound it; `usb-devices` and `/proc/bus/usb/devices` show each
interface's class. The drivers' own tables say which classes are network functions:
every `USB_INTERFACE_INFO(class, subclass, protocol)` in drivers/net/usb/*.c, with the
constants of include/uapi/linux/usb/ch9.h and cdc.h resolved. Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usb_net_classes.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/usb/*", "include/uapi/linux/usb/*")
HEADERS = ("include/uapi/linux/usb/ch9.h", "include/uapi/linux/usb/cdc.h")
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEFINE_RE = re.compile(r"^#define\s+(USB_\w+)\s+(0x[0-9A-Fa-f]+|\d+)\b", re.M)
_INFO_RE = re.compile(r"USB_INTERFACE_INFO\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)")


def constants(root: Path) -> dict[str, int]:
    found: dict[str, int] = {}
    for rel in HEADERS:
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        found.update({k: int(v, 0) for k, v in _DEFINE_RE.findall(text)})
    return found


def classes(text: str, names: dict[str, int]) -> set[str]:
    """The `cc/ss/pp` triples (hex) of one driver's USB_INTERFACE_INFO() matches."""
    found: set[str] = set()
    for parts in _INFO_RE.findall(_COMMENT_RE.sub(" ", text)):
        values = [
            names.get(p) if p in names else int(p, 0) if p[:1].isdigit() else None for p in parts
        ]
        if all(v is not None and 0 <= v <= 0xFF for v in values):
            found.add("/".join(f"{v:02x}" for v in values))
    return found


def build(trees: dict[str, Path]) -> dict[str, list[str]]:
    """Each class triple, with the drivers (in either series) that bind it."""
    table: dict[str, set[str]] = {}
    for root in trees.values():
        names = constants(root)
        for path in sorted((root / "drivers/net/usb").glob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            for triple in classes(text, names):
                table.setdefault(triple, set()).add(path.stem)
    return {k: sorted(v) for k, v in sorted(table.items())}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    write_table(
        OUT, "scripts/regen_usb_net_classes.py", versions, {"classes": table}, sort_keys=False
    )
    print(f"{OUT.relative_to(ROOT)}: {len(table)} classes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
