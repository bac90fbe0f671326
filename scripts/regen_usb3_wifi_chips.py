#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usb3_wifi_chips.json: the USB Wi-Fi chips the kernel's
own source treats as USB 3 devices that start in USB 2 mode.

    python scripts/regen_usb3_wifi_chips.py    # obtains the source via kernel_source.py

Why: an RTL8822BU enumerates at 480M (high speed) and only its driver switches it to USB 3
(SuperSpeed) mode. rtw88's usb.c rtw_usb_switch_mode() names the chips it switches
("if (id != RTW_CHIP_TYPE_8822C && id != RTW_CHIP_TYPE_8822B) return 0;" in 6.12); 6.1's rtw88
has no usb.c (its USB parts came in 6.2). Each chip type is tied to the USB drivers that bind
it: the driver file's ID table points at a hw_spec (rtw8822bu.c: rtw8822b_hw_spec), whose
definition sets `.id = RTW_CHIP_TYPE_8822B` (rtw8822b.c); the module name comes from the
Makefile ("rtw88_8822bu-objs := rtw8822bu.o"). So a USB Wi-Fi NIC of such a chip seen at
480M is a USB 3 device held at USB 2 speed, by the kernel's word, not by a list kept by hand.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usb3_wifi_chips.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import pinned_packages, write_json  # noqa: E402
from regen_usb_probe_resets import function_body  # noqa: E402

GLOBS = ("drivers/net/*",)
RTW88 = "drivers/net/wireless/realtek/rtw88"
SWITCH = "rtw_usb_switch_mode"
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# "if (id != RTW_CHIP_TYPE_8822C && id != RTW_CHIP_TYPE_8822B) return 0;": the chips let through
_NOT_TYPE_RE = re.compile(r"\bid\s*!=\s*RTW_CHIP_TYPE_(\w+)")
_SPEC_RE = re.compile(r"driver_info\s*=\s*\(kernel_ulong_t\)\s*&\s*\(?\s*(\w+_hw_spec)\b")
_NAME_RE = re.compile(r"struct\s+usb_driver\s+\w+\s*=\s*\{[^}]*?\.name\s*=\s*\"([\w-]+)\"", re.S)


def switching_types(usb_c: str) -> list[str]:
    """The RTW_CHIP_TYPE_ suffixes rtw_usb_switch_mode() lets through to the switch."""
    body = function_body(_COMMENT_RE.sub(" ", usb_c), SWITCH)
    if body is None:
        return []
    found = _NOT_TYPE_RE.findall(body)
    if not found:
        raise SystemExit(f"{SWITCH}() no longer reads 'id != RTW_CHIP_TYPE_X': read it again")
    return sorted(set(found))


def spec_types(tree: Path) -> dict[str, tuple[str, str]]:
    """hw_spec name -> (its RTW_CHIP_TYPE_ suffix, the file that defines it)."""
    found = {}
    for path in sorted(tree.glob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for spec, body in re.findall(
            r"const\s+struct\s+rtw_chip_info\s+(\w+_hw_spec)\s*=\s*\{(.*?)\n\};", text, re.S
        ):
            kind = re.search(r"\.id\s*=\s*RTW_CHIP_TYPE_(\w+)", body)
            if kind is not None:
                found[spec] = (kind.group(1), f"{RTW88}/{path.name}")
    return found


def modules(makefile: str) -> dict[str, str]:
    """object file stem -> module name ("rtw88_8822bu-objs := rtw8822bu.o")."""
    return {obj: mod for mod, obj in re.findall(r"^(\w+)-objs\s*:=\s*(\w+)\.o\s*$", makefile, re.M)}


def read_tree(
    root: Path, series: str, drivers: dict[str, dict[str, object]]
) -> dict[str, dict[str, object]]:
    """The chips one series' source lets through rtw_usb_switch_mode(), each with the USB
    drivers (drivers.json's, by their file) whose ID tables bind it; {} when rtw88 has no
    usb.c (6.1)."""
    chips: dict[str, dict[str, object]] = {}
    tree = root / RTW88
    usb_c = tree / "usb.c"
    if not usb_c.is_file():
        return chips
    types = switching_types(usb_c.read_text(encoding="utf-8", errors="replace"))
    specs = spec_types(tree)
    mods = modules((tree / "Makefile").read_text(encoding="utf-8", errors="replace"))
    for name, info in sorted(drivers.items()):
        file = str(info.get("file", ""))
        buses = info.get("buses", ())
        if not file.startswith(RTW88 + "/") or not isinstance(buses, list) or "usb" not in buses:
            continue
        path = root / file
        listed = info.get("series", ())
        if not isinstance(listed, list) or series not in listed or not path.is_file():
            continue
        text = _COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
        registered = _NAME_RE.search(text)
        for spec in sorted(set(_SPEC_RE.findall(text))):
            kind, spec_file = specs.get(spec, ("", ""))
            if kind not in types:
                continue
            row = chips.setdefault(
                kind.lower(),
                {
                    "chip_type": f"RTW_CHIP_TYPE_{kind}",
                    "spec": f"{spec_file} {spec}",
                    "drivers": [],
                    "modules": [],
                    "series": [series],
                },
            )
            for key, value in (
                ("drivers", registered.group(1) if registered else name),
                ("modules", mods.get(Path(file).stem, "")),
            ):
                held = row[key]
                assert isinstance(held, list)
                if value and value not in held:
                    held.append(value)
    return chips


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    chips: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        for family, row in read_tree(root, series, drivers).items():
            if family not in chips:
                chips[family] = row
                continue
            for key in ("drivers", "modules", "series"):
                held, more = chips[family][key], row[key]
                assert isinstance(held, list) and isinstance(more, list)
                held.extend(v for v in more if v not in held)
    write_json(
        OUT,
        {
            "about": (
                "USB Wi-Fi chips that start in USB 2 mode and that the kernel switches to "
                f"USB 3: the chip types {RTW88}/usb.c {SWITCH}() lets through (its module "
                "parameter switch_usb_mode, default Y; the chip's efuse may forbid it), "
                "with the USB drivers whose ID tables bind them. Generated by "
                "scripts/regen_usb3_wifi_chips.py; do not edit."
            ),
            "packages": used,
            "rule": {"file": f"{RTW88}/usb.c", "function": SWITCH},
            "chips": chips,
        },
        sort_keys=True,
    )
    print(f"{len(chips)} USB 3 Wi-Fi chip types -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
