"""Firmware files a driver picks per device in a `switch` on the device's ID (used by
regen_firmware_chips.py).

mwifiex's PCIe and USB parts name no firmware in their ID tables: they choose the file when the
card registers, by its device or product ID. pcie.c mwifiex_pcie_get_fw_name() (6.1, 6.12):
`case PCIE_DEVICE_ID_MARVELL_88W8997: ... strcpy(adapter->fw_name, PCIEUSB8997_FW_NAME_V4);`
with pcie.h's `#define PCIEUSB8997_FW_NAME_V4 "mrvl/pcieusb8997_combo_v4.bin"`; usb.c
mwifiex_register_dev(): `case USB8997_PID_1: case USB8997_PID_2: ...
strcpy(adapter->fw_name, USB8997_DEFAULT_FW_NAME);`. So the file is the chip's the case label
names.

The chip's name is the model word of the case label's macro (88W8997, USB8997), and only when
the firmware macro's own name says the same model number: two sources of the driver agreeing,
as firmware_structs.py asks. A file that labels of two models reach is neither's; `default:`
names no model.
"""

from __future__ import annotations

import re
from pathlib import Path

from firmware_prefixes import read_macros, resolve
from firmware_structs import one_chip_each

_CASE_RE = re.compile(r"^\s*case\s+([A-Z_][A-Z0-9_]*)\s*:")
_DEFAULT_RE = re.compile(r"^\s*default\s*:")
# the driver copies the file's name into the adapter: strcpy/strscpy/strlcpy(x->fw_name, MACRO
_COPY_RE = re.compile(r"\bstr(?:s|l)?cpy\s*\(\s*[\w.>-]*fw_name\s*,\s*([A-Z_][A-Z0-9_]*)\s*[,)]")
_WORD_RE = re.compile(r"^[0-9A-Z]*?(\d{4})$")  # 88W8997, USB8997, PCIE8897
_NUMBER_RE = re.compile(r"(?<![0-9])(\d{4})(?![0-9])")
_FIRMWARE_EXT = (".fw", ".bin", ".ucode")


def _model(label: str) -> tuple[str, str] | None:
    """(model word, its number) of a case label's macro: PCIE_DEVICE_ID_MARVELL_88W8997 ->
    ("88W8997", "8997"); None when no one word of it ends in a model number."""
    words = [(w, m.group(1)) for w in label.split("_") if (m := _WORD_RE.match(w))]
    return words[0] if len(words) == 1 else None


def case_files(main_file: Path) -> dict[str, tuple[str, str, str]]:
    """{firmware file: (chip, case label, macro)} of the driver's switches that copy a firmware
    macro into its fw_name under case labels of one model."""
    text = main_file.read_text(encoding="utf-8", errors="replace")
    if "fw_name" not in text or "case " not in text:
        return {}
    macros = read_macros(sorted(main_file.parent.glob("*.[ch]")), char_arrays=False)
    labels: list[str] = []
    stacked = False  # the line before was a case label: labels stack (case A: case B:)
    found: dict[str, set[tuple[str, str, str]]] = {}
    for line in text.splitlines():
        if case := _CASE_RE.match(line):
            labels = [*labels, case.group(1)] if stacked else [case.group(1)]
            stacked = True
            continue
        stacked = False
        if _DEFAULT_RE.match(line):
            labels = []
            continue
        copy = _COPY_RE.search(line)
        if copy is None or not labels:
            continue
        macro = copy.group(1)
        got = resolve(macro, macros)
        if not got or not got.endswith(_FIRMWARE_EXT) or " " in got:
            continue
        numbers = set(_NUMBER_RE.findall(macro.replace("_", " ")))
        for label in labels:
            model = _model(label)
            agreed = model is not None and model[1] in numbers
            found.setdefault(got, set()).add((model[0] if model and agreed else "", label, macro))
    return one_chip_each(found)
