#!/usr/bin/env python3
"""Regenerate resources/kernel_source/firmware_chips.json: which chip a network driver loads a
firmware file for, from the driver's own chip table.

    python scripts/regen_firmware_chips.py    # obtains the source via kernel_source.py

Why: a log often names a NIC's chip only through the firmware its driver asks for (r8169:
"Direct firmware load for rtl_nic/rtl8168h-2.fw failed"), and r8169_main.c's rtl_chip_infos
pairs each chip name with its firmware macro ({"RTL8168h/8111h", FIRMWARE_8168H_2}, and
"#define FIRMWARE_8168H_2 "rtl_nic/rtl8168h-2.fw""). Every driver of
resources/kernel_source/drivers.json is read for such pairs; the source is Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names.

"prefixes": drivers that make a firmware file's name at run time from a per-chip prefix
(iwlwifi's cfg->fw_name_pre "iwlwifi-7260", ath10k/ath11k/ath12k's hw_params fw.dir
"WCN6855/hw2.1"), read by firmware_prefixes.py: a file that starts with the prefix is that
chip's ("7260-17.ucode", as iwlwifi prints it, is a Wireless 7260's).

"structs": drivers whose ID table points each device to a struct naming its firmware file by a
macro (mwifiex sdio.c: SDIO_DEVICE_ID_MARVELL_8887_WLAN -> mwifiex_sdio_sd8887, .firmware =
SD8887_DEFAULT_FW_NAME), read by firmware_structs.py.

"cases": drivers that pick the file in a `switch` on the device's ID (mwifiex pcie.c: case
PCIE_DEVICE_ID_MARVELL_88W8997 -> strcpy(adapter->fw_name, PCIEUSB8997_FW_NAME_V4)), read by
firmware_cases.py.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "firmware_chips.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from firmware_cases import case_files  # noqa: E402
from firmware_defines import named_files  # noqa: E402
from firmware_prefixes import family, prefixes  # noqa: E402
from firmware_structs import struct_files  # noqa: E402
from regen_tables import pinned_packages, write_json  # noqa: E402

# drivers.json's drivers, staging's among them (rtl8723bs, r8188eu ...): read from the folders
# this asks for, not from whatever another caller extracted into the shared cache
GLOBS = ("drivers/net/*", "drivers/staging/*")
_DEFINE_RE = re.compile(r'^#define\s+(FIRMWARE_\w+)\s+"([^"\n]{3,80})"', re.M)
_PAIR_RE = re.compile(r'"([A-Z][A-Za-z0-9/ _-]{2,40})",\s*(FIRMWARE_\w+)\s*\}')


def pairs(text: str) -> dict[str, str]:
    """{firmware file: chip name} from one source file's chip table; a file two chips share
    names both ("RTL8105e or RTL8101e")."""
    defines = dict(_DEFINE_RE.findall(text))
    out: dict[str, list[str]] = {}
    for chip, macro in _PAIR_RE.findall(text):
        if macro in defines and chip not in out.setdefault(defines[macro], []):
            out[defines[macro]].append(chip)
    return {firmware: " or ".join(chips) for firmware, chips in out.items()}


def id_names(ids: dict[str, dict[str, list[str]]], series: str) -> dict[str, list[str]]:
    """driver -> the usb.ids/pci.ids names of the IDs its `series` source lists."""
    names = {
        bus: json.loads((ROOT / "resources" / "ids" / f"{bus}.json").read_text(encoding="utf-8"))[
            "devices"
        ]
        for bus in ("usb", "pci")
    }
    out: dict[str, list[str]] = {}
    for key, drivers in sorted(ids.items()):
        bus, _, device = key.partition(":")
        if name := names.get(bus, {}).get(device):
            for driver, in_series in drivers.items():
                if series in in_series:
                    out.setdefault(driver, []).append(name)
    return out


def macro_rows(root: Path, series: str, table: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{firmware file: {chip, driver, file, macro}} of one tree: the files the drivers of
    drivers.json (`table`) name for a chip by their own macros (firmware_defines.py)."""
    names = id_names(table["ids"], series)
    out: dict[str, dict[str, str]] = {}
    for name, info in sorted(table["drivers"].items()):
        path = root / str(info["file"])
        if not path.is_file() or name not in names:
            continue
        for firmware, (chip, macro) in named_files(path.parent, path, names[name]).items():
            out.setdefault(
                firmware, {"chip": chip, "driver": name, "file": info["file"], "macro": macro}
            )
    return out


def struct_rows(root: Path, table: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{firmware file: {chip, driver, file, struct, macro}} of one tree (firmware_structs.py)."""
    out: dict[str, dict[str, str]] = {}
    for name, info in sorted(table["drivers"].items()):
        path = root / str(info["file"])
        if not path.is_file():
            continue
        for firmware, (chip, struct, macro) in struct_files(path).items():
            out.setdefault(
                firmware,
                {
                    "chip": chip,
                    "driver": name,
                    "file": info["file"],
                    "struct": struct,
                    "macro": macro,
                },
            )
    return out


def case_rows(root: Path, table: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{firmware file: {chip, driver, file, label, macro}} of one tree (firmware_cases.py)."""
    out: dict[str, dict[str, str]] = {}
    for name, info in sorted(table["drivers"].items()):
        path = root / str(info["file"])
        if not path.is_file():
            continue
        for firmware, (chip, label, macro) in case_files(path).items():
            row = {"chip": chip, "driver": name, "file": info["file"], "label": label}
            out.setdefault(firmware, {**row, "macro": macro})
    return out


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    table = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))
    drivers = table["drivers"]
    by_macro: dict[str, dict[str, object]] = {}
    found: dict[str, dict[str, object]] = {}
    by_prefix: dict[str, dict[str, object]] = {}
    by_struct: dict[str, dict[str, object]] = {}
    by_case: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        for name, info in sorted(drivers.items()):
            path = root / str(info["file"])
            if not path.is_file():
                continue
            for firmware, chip in pairs(path.read_text(encoding="utf-8", errors="replace")).items():
                row = found.setdefault(
                    firmware, {"chip": chip, "driver": name, "file": info["file"], "series": []}
                )
                row["series"].append(series)  # type: ignore[attr-defined]
        for firmware, item in macro_rows(root, series, table).items():
            row = by_macro.setdefault(firmware, {**item, "series": []})
            row["series"].append(series)  # type: ignore[attr-defined]
        for firmware, item in struct_rows(root, table).items():
            row = by_struct.setdefault(firmware, {**item, "series": []})
            row["series"].append(series)  # type: ignore[attr-defined]
        for firmware, item in case_rows(root, table).items():
            row = by_case.setdefault(firmware, {**item, "series": []})
            row["series"].append(series)  # type: ignore[attr-defined]
        for prefix, item in prefixes(root).items():
            row = by_prefix.setdefault(prefix, {**item, "names": [], "series": []})
            row["names"] = sorted({*row["names"], *item["names"]})  # type: ignore[misc]
            row["chip"] = family(row["names"])  # type: ignore[arg-type]
            row["series"].append(series)  # type: ignore[attr-defined]
    write_json(
        OUT,
        {
            "about": (
                "Firmware files and the chip each is for, from the drivers' chip tables, by "
                "scripts/regen_firmware_chips.py. Generated; do not edit."
            ),
            "packages": used,
            "firmware": found,
            "prefixes": by_prefix,
            "macros": by_macro,
            "structs": by_struct,
            "cases": by_case,
        },
        sort_keys=True,
    )
    print(
        f"{len(found)} firmware files, {len(by_macro)} by macro, {len(by_struct)} by device "
        f"struct, {len(by_case)} by switch case and {len(by_prefix)} prefixes "
        "name their chip "
        f"-> {OUT.relative_to(ROOT)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
