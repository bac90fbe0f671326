#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usb_device_drivers.json: the names of the kernel's USB
*device* drivers (``struct usb_device_driver``, bound to a whole USB device rather than to one
of its interfaces), per series.

    python scripts/regen_usb_device_drivers.py    # obtains the source via kernel_source.py

Why: the USB core prints its lines about a device (drivers/usb/core/hub.c: "reset %s USB device
number %d using %s", usb_disconnect()'s "USB disconnect, device number %d", "not running at top
speed") with dev_info(&udev->dev, ...), whose prefix is the name of the driver bound to the
device: ``usb`` for the generic driver (drivers/usb/core/generic.c usb_generic_driver), but
``r8152-cfgselector`` once r8152's configuration selector holds an RTL815x adapter
(drivers/net/usb/r8152.c rtl8152_cfgselector_driver, ``MODULENAME "-cfgselector"``), so a
Proxmox host's "r8152-cfgselector 2-2: reset SuperSpeed USB device number 2 using xhci_hcd" is
the same hub.c line as "usb 2-2: reset ...". Each ``.name`` is read from the struct's
initialiser, a string literal or a macro of the same file defined as one, joined as C joins
adjacent literals. Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usb_device_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/*",)
_STRUCT = re.compile(r"\bstruct\s+usb_device_driver\s+\w+\s*=\s*\{(?P<body>.*?)\n\s*\};", re.S)
_NAME = re.compile(r"\.name\s*=\s*(?P<value>[^,\n]+),")
_TOKEN = re.compile(r'"(?P<literal>(?:[^"\\]|\\.)*)"|(?P<macro>[A-Za-z_]\w*)')


def _defines(text: str) -> dict[str, str]:
    """The file's ``#define NAME "literal"`` macros."""
    return {
        m.group(1): m.group(2)
        for m in re.finditer(r'^#define\s+([A-Za-z_]\w*)\s+"((?:[^"\\]|\\.)*)"\s*$', text, re.M)
    }


def _name(value: str, defines: dict[str, str]) -> str | None:
    """A ``.name`` initialiser as C reads it: adjacent literals and literal macros joined."""
    parts: list[str] = []
    for token in _TOKEN.finditer(value):
        if token.group("literal") is not None:
            parts.append(token.group("literal"))
        elif token.group("macro") in defines:
            parts.append(defines[token.group("macro")])
        else:
            return None  # a name the file does not spell out: left out, not guessed
    return "".join(parts) or None


def device_drivers(root: Path) -> dict[str, str]:
    """Every USB device driver's name under drivers/, and the file that defines it."""
    found: dict[str, str] = {}
    for path in sorted((root / "drivers").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "usb_device_driver" not in text:
            continue
        defines = _defines(text)
        for struct in _STRUCT.finditer(text):
            m = _NAME.search(struct.group("body"))
            name = _name(m.group("value"), defines) if m else None
            if name:
                found[name] = path.relative_to(root).as_posix()
    return found


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    """name → the file that defines it and the series that have it."""
    names: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for name, file in device_drivers(root).items():
            entry = names.setdefault(name, {"file": file, "series": []})
            entry["series"].append(series)  # type: ignore[union-attr]
    return dict(sorted(names.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    data = {"drivers": table(trees)}
    write_table(OUT, "scripts/regen_usb_device_drivers.py", versions, data, sort_keys=True)
    for name, entry in data["drivers"].items():
        print(name, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
