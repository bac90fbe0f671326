#!/usr/bin/env python3
"""Regenerate resources/kernel_source/wwan_usb_ids.json: the USB vendor:product pairs the
kernel's mobile-network modem drivers list in their ID tables.

    python scripts/regen_wwan_ids.py    # obtains the source via kernel_source.py

Why: a cellular modem (an LTE/5G module such as a Quectel RM520N-GL) is often pasted with no
network driver bound (`Driver=(none)`, only its `New USB device found` lines), so neither its
driver nor its interface name says "modem", and usb.ids may not know it. The kernel's own
tables do: `option` ("USB Driver for GSM modems"), `qcserial` (Qualcomm modems), `sierra`
(Sierra Wireless modems) under drivers/usb/serial/, and `qmi_wwan` and `sierra_net` under
drivers/net/usb/ list the modems they bind, by vendor and product. Only pairs are kept (a match
on a vendor and an interface class alone names no device); a product named by a `#define` of
the same file is resolved. Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names; a pair in either series counts.

"serial_drivers": the usb-serial modem drivers' port names and descriptions (each struct
usb_serial_driver's .driver.name and .description: option's "option1", "GSM modem (1-port)").
The USB serial core prints a port's removal on the port device under that name ("option1
ttyUSB0: GSM modem (1-port) converter now disconnected from ttyUSB0", drivers/usb/serial/bus.c
usb_serial_device_remove()), a line that names no USB device but says a modem driver had it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "wwan_usb_ids.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/usb/serial/*", "drivers/net/usb/*")
FILES = {
    "option": "drivers/usb/serial/option.c",
    "qcserial": "drivers/usb/serial/qcserial.c",
    "sierra": "drivers/usb/serial/sierra.c",
    "qmi_wwan": "drivers/net/usb/qmi_wwan.c",
    "sierra_net": "drivers/net/usb/sierra_net.c",
}
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEFINE_RE = re.compile(r"^#define\s+([A-Z_][A-Z0-9_]*)\s+\(?(0x[0-9A-Fa-f]+|\d+)\)?\s*$", re.M)
_TABLE_RE = re.compile(r"struct\s+usb_device_id\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\n\s*\}\s*;", re.S)
_ARG = r"(0x[0-9A-Fa-f]{1,4}|\d+|[A-Z_][A-Z0-9_]*)"
# USB_DEVICE(v, p), USB_DEVICE_AND_INTERFACE_INFO(v, p, ...), QMI_FIXED_INTF(v, p, n),
# DEVICE_SWI(v, p) ...: every such table macro takes the vendor, then the product
_PAIR_RE = re.compile(rf"\b[A-Z][A-Z0-9_]*\(\s*{_ARG}\s*,\s*{_ARG}\s*[,)]")


def _value(token: str, defines: dict[str, int]) -> int | None:
    if token in defines:
        return defines[token]
    if token[:1].isdigit():
        return int(token, 0)
    return None


def pairs(text: str) -> set[str]:
    """The `vvvv:pppp` pairs of every usb_device_id table in one C file."""
    text = _COMMENT_RE.sub(" ", text)
    defines = {name: int(value, 0) for name, value in _DEFINE_RE.findall(text)}
    found: set[str] = set()
    for body in _TABLE_RE.findall(text):
        for vendor, product in _PAIR_RE.findall(body):
            v, p = _value(vendor, defines), _value(product, defines)
            if v and p is not None and v <= 0xFFFF and p <= 0xFFFF:
                found.add(f"{v:04x}:{p:04x}")
    return found


_SERIAL_RE = re.compile(
    r"struct\s+usb_serial_driver\s+\w+\s*=\s*\{.*?\.name\s*=\s*\"([^\"]+)\".*?"
    r"\.description\s*=\s*\"([^\"]+)\"",
    re.S,
)
SERIAL = ("option", "qcserial", "sierra")


def serial_drivers(trees: dict[str, Path]) -> dict[str, dict[str, str]]:
    """Each modem usb-serial driver's port name: its module, description and file."""
    found: dict[str, dict[str, str]] = {}
    for module in SERIAL:
        for root in trees.values():
            path = root / FILES[module]
            if not path.is_file():
                continue
            text = _COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
            for name, description in _SERIAL_RE.findall(text):
                row = {"module": module, "description": description, "file": FILES[module]}
                found.setdefault(name, row)
    return dict(sorted(found.items()))


def build(trees: dict[str, Path]) -> dict[str, list[str]]:
    """Each pair, with the drivers (in either series) whose table lists it."""
    ids: dict[str, set[str]] = {}
    for driver, rel in FILES.items():
        for root in trees.values():
            path = root / rel
            if path.is_file():
                for pair in pairs(path.read_text(encoding="utf-8", errors="replace")):
                    ids.setdefault(pair, set()).add(driver)
    return {pair: sorted(drivers) for pair, drivers in sorted(ids.items())}


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    table = build(trees)
    serial = serial_drivers(trees)
    write_table(
        OUT,
        "scripts/regen_wwan_ids.py",
        versions,
        {"files": FILES, "ids": table, "serial_drivers": serial},
        sort_keys=False,
    )
    print(f"{OUT.relative_to(ROOT)}: {len(table)} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
