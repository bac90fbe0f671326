"""Firmware files a driver names per device through the struct its ID table points to (used by
regen_firmware_chips.py).

mwifiex keeps one struct per card and ties each to its device IDs: sdio.c's mwifiex_ids[] has
`{SDIO_DEVICE(SDIO_VENDOR_ID_MARVELL, SDIO_DEVICE_ID_MARVELL_8887_WLAN), .driver_data =
(unsigned long)&mwifiex_sdio_sd8887}`, and `mwifiex_sdio_sd8887 = { .firmware =
SD8887_DEFAULT_FW_NAME, ...}` with sdio.h's `#define SD8887_DEFAULT_FW_NAME
"mrvl/sd8887_uapsta.bin"`; mwifiex_sdio_probe() copies the struct's .firmware into the
adapter's fw_name, the file it then requests. So the file is that ID's chip's.

The chip's name is the model the firmware macro's name gives (SD8887, as the driver's Kconfig
writes it: "SD8786/SD8787/.../SD8887"), and only when the ID entry's own macros say the same
model number (..._8887_WLAN): two sources of the driver agreeing, not a name guessed from a
file name. A file that entries of two models point to is neither's.
"""

from __future__ import annotations

import re
from pathlib import Path

from firmware_prefixes import read_macros, resolve

# An ID table entry that points to a per-device struct: its ID part and the struct's name.
_ENTRY_RE = re.compile(
    r"\{\s*([^{}]*?),?\s*\.driver_data\s*=\s*\([^()]*\)\s*&\s*(\w+)\s*,?\s*\}", re.S
)
_STRUCT_RE = re.compile(r"\bstruct\s+\w+\s+(\w+)\s*=\s*\{(.*?)\n\};", re.S)
_FIELD_RE = re.compile(r"\.(\w+)\s*=\s*([^,\n]+),")
_MODEL_RE = re.compile(r"^([A-Z]{1,4})(\d{4})$")  # SD8887, USB8797, PCIE8766
_NUMBER_RE = re.compile(r"(?<![0-9A-Za-z])\d{4}(?![0-9])")
_FIRMWARE_EXT = (".fw", ".bin", ".ucode")


def _structs(text: str, macros: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """struct name -> [(firmware file, the macro that names it)] of its initialiser's fields
    whose value is a firmware file's name."""
    out: dict[str, list[tuple[str, str]]] = {}
    for name, body in _STRUCT_RE.findall(text):
        for _field, value in _FIELD_RE.findall(body):
            macro = value.strip()
            if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", macro):
                continue  # a literal names no model: only a macro's name does
            got = resolve(macro, macros)
            if got and got.endswith(_FIRMWARE_EXT) and " " not in got:
                out.setdefault(name, []).append((got, macro))
    return out


def _model(macro: str, numbers: set[str]) -> str | None:
    """The model a firmware macro's name gives (SD8887_DEFAULT_FW_NAME: SD8887), when its
    number is one the ID entry says."""
    models = {w for w in macro.split("_") if (m := _MODEL_RE.match(w)) and m.group(2) in numbers}
    return models.pop() if len(models) == 1 else None


def struct_files(main_file: Path) -> dict[str, tuple[str, str, str]]:
    """{firmware file: (chip, struct, macro)} of one driver's ID table entries that point to a
    per-device struct naming a firmware file by a macro of the driver's directory."""
    text = main_file.read_text(encoding="utf-8", errors="replace")
    if ".driver_data" not in text:
        return {}
    macros = read_macros(sorted(main_file.parent.glob("*.[ch]")), char_arrays=False)
    structs = _structs(text, macros)
    found: dict[str, set[tuple[str, str, str]]] = {}
    for ids, name in _ENTRY_RE.findall(text):
        numbers = set(_NUMBER_RE.findall(ids.replace("_", " ")))
        for firmware, macro in structs.get(name, []):
            model = _model(macro, numbers)
            # an entry whose IDs say no model, or another, leaves the file unnamed
            found.setdefault(firmware, set()).add((model or "", name, macro))
    return one_chip_each(found)


def one_chip_each(found: dict[str, set[tuple[str, str, str]]]) -> dict[str, tuple[str, str, str]]:
    """Each firmware file whose rows (chip, entry, macro) all name one chip: its first row. A
    file two chips share, or one row left unnamed, names none."""
    out: dict[str, tuple[str, str, str]] = {}
    for firmware, rows in sorted(found.items()):
        chips = {chip for chip, _, _ in rows}
        if len(chips) == 1 and "" not in chips:
            out[firmware] = sorted(rows)[0]
    return out
