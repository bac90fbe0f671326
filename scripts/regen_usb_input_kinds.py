#!/usr/bin/env python3
"""Regenerate resources/ids/usb_input_kinds.json: the kinds of input device usb.ids names.

    python scripts/regen_usb_input_kinds.py            # apt-get download usb.ids into a temp dir
    python scripts/regen_usb_input_kinds.py DEB_DIR    # use the usb.ids .deb already there

Why: "wireless" in a USB device's name says it has a radio, not that it is a network device:
usb.ids names ~130 mice and keyboards "Wireless ..." ("248a:8366 Wireless Optical Mouse
ACT-MUSW-002"). usb.ids itself says which words name an input device: its HID usage table
section (`HUT 01  Generic Desktop Controls`), whose usages below 0x30 are the device kinds
(Pointer, Mouse, Joystick, Gamepad, Keyboard, Keypad, ...; from 0x30 on the controls, X, Y,
Wheel ...), and the protocols of its HID class (`C 03  Human Interface Device`: Keyboard,
Mouse). Read from the same Debian usb.ids package resources/ids/VERSION.json names.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "ids" / "usb_input_kinds.json"
_FIRST_CONTROL = 0x30  # HID Usage Tables 1.4, Generic Desktop page: 0x30 is X, a control


def _run(argv: list[str], cwd: Path | None = None) -> str:
    return subprocess.run(argv, cwd=cwd, check=True, capture_output=True, text=True).stdout


def kinds(text: str) -> list[str]:
    """The device kinds of usb.ids' Generic Desktop usages and its HID class's protocols."""
    found: dict[str, None] = {}
    section = None
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if not line.startswith("\t"):
            section = line.split()[0:2]
            continue
        usage = re.match(r"^\t([0-9a-f]{3})\s+(.+)$", line)
        protocol = re.match(r"^\t\t([0-9a-f]{2})\s+(.+)$", line)
        if section == ["HUT", "01"] and usage and 0 < int(usage.group(1), 16) < _FIRST_CONTROL:
            found[usage.group(2).strip()] = None
        elif section == ["C", "03"] and protocol and protocol.group(2).strip() != "None":
            found[protocol.group(2).strip()] = None
    return list(found)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp)
        if len(sys.argv) <= 1:
            _run(["apt-get", "download", "usb.ids"], cwd=where)
        deb = sorted(where.glob("usb.ids_*.deb"))[-1]
        version = _run(["dpkg-deb", "-f", str(deb), "Version"]).strip()
        out = Path(tmp) / "x"
        _run(["dpkg-deb", "-x", str(deb), str(out)])
        found = [p for p in out.rglob("usb.ids") if p.is_file()]
        text = found[0].read_text(encoding="utf-8", errors="replace")
    header = re.search(r"^#\s*Version:\s*(\S+)", text, re.M)
    table = {
        "source": {
            "package": "usb.ids",
            "package_version": version,
            "database_version": header.group(1) if header else "",
            "sections": "HUT 01 Generic Desktop Controls (usages 0x01-0x2f); C 03 protocols",
            "upstream": "http://www.linux-usb.org/usb-ids.html",
        },
        "kinds": kinds(text),
    }
    OUT.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(table['kinds'])} kinds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
