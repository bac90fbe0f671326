#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usb_probe_resets.json: the USB network drivers whose probe
resets the device (calls usb_reset_device() in the probe function or a function it calls).

    python scripts/regen_usb_probe_resets.py    # obtains the source via kernel_source.py

Why: the USB core logs that reset ("usb 1-1: reset high-speed USB device number 2 using
xhci_hcd", drivers/usb/core/hub.c) naming only the device's port path. A reset that follows the
registration of such a driver at once is that driver probing the device: r8152's
rtl8152_probe_once() starts with usb_reset_device(). The drivers are those of
resources/kernel_source/drivers.json that bind on USB; their source comes from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usb_probe_resets.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import pinned_packages, write_json  # noqa: E402

# drivers.json's USB drivers, staging's among them (vt6656, gdm724x ...): read from the folders
# this asks for, not from whatever another caller extracted into the shared cache
GLOBS = ("drivers/net/*", "drivers/staging/*")
_PROBE_RE = re.compile(r"\.probe\s*=\s*(\w+)\s*,")
_CALL_RE = re.compile(r"\b([a-z_]\w*)\s*\(")
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def function_body(text: str, name: str) -> str | None:
    """The body of the C function `name` defined in `text` (braces matched), or None."""
    head = re.search(rf"^[A-Za-z_][\w \t\*]*\b{re.escape(name)}\s*\([^;{{]*\)\s*\{{", text, re.M)
    if head is None:
        return None
    depth, i = 1, head.end()
    while i < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[head.end() : i - 1]


def probe_reset(text: str) -> str | None:
    """The function (the probe, or one it calls) that calls usb_reset_device(), if any."""
    text = _COMMENT_RE.sub(" ", text)
    for probe in dict.fromkeys(_PROBE_RE.findall(text)):
        body = function_body(text, probe)
        if body is None:
            continue
        if "usb_reset_device(" in body:
            return probe
        for called in dict.fromkeys(_CALL_RE.findall(body)):
            inner = function_body(text, called) if called != probe else None
            if inner is not None and "usb_reset_device(" in inner:
                return called
    return None


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    usb = {n: d for n, d in drivers.items() if "usb" in d.get("buses", ())}
    found: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        for name, info in sorted(usb.items()):
            path = root / str(info["file"])
            if series not in info.get("series", ()) or not path.is_file():
                continue
            function = probe_reset(path.read_text(encoding="utf-8", errors="replace"))
            if function is not None:
                row = found.setdefault(
                    name, {"file": info["file"], "function": function, "series": []}
                )
                row["series"].append(series)  # type: ignore[attr-defined]
    write_json(
        OUT,
        {
            "about": (
                "USB network drivers whose probe resets the device (usb_reset_device), by "
                "scripts/regen_usb_probe_resets.py. Generated; do not edit."
            ),
            "packages": used,
            "drivers": found,
        },
        sort_keys=True,
    )
    print(f"{len(found)} of {len(usb)} USB drivers reset on probe -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
