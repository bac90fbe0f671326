"""Firmware files named for their chip by the driver's own macros (used by
regen_firmware_chips.py).

Drivers that pick a firmware file per chip often keep one #define per file and name the macro
after the chip: ath9k's hif_usb.h has `#define FIRMWARE_AR9271 "htc_9271.fw"` and
`#define FIRMWARE_AR7010_1_1 "htc_7010.fw"` (hif_usb.c ath9k_hif_request_firmware() picks the
7010 file for IS_AR7010_DEVICE() and the 9271 one otherwise), rt61pci.c one per RT2561,
RT2561s and RT2661. A macro's name is not proof that no other chip loads the file: rt2800usb's
FIRMWARE_RT2870 "rt2870.bin" serves the RT3070 and RT5370 too. So a driver's macros name a
file's chip only when every chip the names of the driver's own IDs mention (usb.ids, pci.ids,
with the prefix of the macros' models: "AR", "RT") is, for each ID, exactly one model that has
a macro of its own ("AR7010+AR9280" loads the AR7010's file); otherwise none of its files is
named. A macro that names only a model's number (HTC_9271_MODULE_FW) is that model's when one
of the driver's models has that number; __stringify(X) is X's value.
"""

from __future__ import annotations

import re
from pathlib import Path

from firmware_prefixes import read_macros, resolve

# A chip model as macros and usb.ids/pci.ids write it: one to three letters, 3-5 digits, at
# most two letters (AR9271, RT2561s, RTL8188EU; not carl9170's CARL9170FW, a driver's name).
_MODEL_RE = re.compile(r"^([A-Za-z]{1,3})(\d{3,5})([A-Za-z]{0,2})$")
_STRINGIFY_RE = re.compile(r"__stringify\(\s*(\w+)\s*\)")
_FIRMWARE_EXT = (".fw", ".bin", ".ucode")


def _value(body: str, macros: dict[str, str]) -> str | None:
    """A macro's string value; __stringify(N) of a macro N whose body is a number is that
    number as a string (hif_usb.h's "." __stringify(FIRMWARE_MINOR_IDX_MAX) ".0.fw")."""

    def number(m: re.Match[str]) -> str:
        body = macros.get(m.group(1), "")
        return f'"{body}"' if body.isdigit() else m.group(0)

    return resolve(_STRINGIFY_RE.sub(number, body), macros)


def models_in(words: str, prefixes: set[str]) -> set[str]:
    """The chip models a name or a macro's name mentions, of the given letter prefixes
    (case kept: RT2561s is not RT2561S)."""
    found: set[str] = set()
    for token in re.split(r"[^A-Za-z0-9]+", words):
        m = _MODEL_RE.match(token)
        if m and m.group(1).upper() in prefixes:
            found.add(token)
    return found


def firmware_macros_of(folder: Path, main: str) -> dict[str, str]:
    """{macro: firmware file} of the string macros of a driver's directory (its own files, not
    its subdirectories') that its main source file uses and whose value is a firmware file."""
    macros = read_macros(sorted(folder.glob("*.[ch]")), char_arrays=False)
    used = set(re.findall(r"\b[A-Za-z_]\w*\b", main))
    found: dict[str, str] = {}
    for name in used & set(macros):
        value = _value(macros[name], macros)
        if value and value.endswith(_FIRMWARE_EXT) and " " not in value:
            found[name] = value
    return found


def _model_of(macro: str, models: set[str]) -> str | None:
    """The one model a macro's name names: by its full name, else by its number alone."""
    words = [w for w in macro.split("_") if w]
    full = [w for w in words if w in models]
    if full:
        return full[0] if len(set(full)) == 1 else None
    numbers = {w for w in words if w.isdigit()}
    by_number = {m for m in models if (mm := _MODEL_RE.match(m)) and mm.group(2) in numbers}
    return by_number.pop() if len(by_number) == 1 else None


def named_files(folder: Path, main_file: Path, id_names: list[str]) -> dict[str, tuple[str, str]]:
    """{firmware file: (chip, the macro that names it)} for one driver whose IDs have these
    names. A model counts only if one of the names says it (cxgb3's AEL2005_OPT_EDC_NAME is
    its PHY's, which no ID names); {} when a name says a model of the same letters that no
    macro names, or two (the files may serve it too); a file two models' macros give is
    neither's."""
    main = main_file.read_text(encoding="utf-8", errors="replace")
    files = firmware_macros_of(folder, main)
    models: set[str] = set()  # named in full by a macro: FIRMWARE_AR9271, not HTC_9271_MODULE_FW
    for macro in files:
        models |= {w for w in macro.split("_") if _MODEL_RE.match(w)}
    prefixes = {m.group(1).upper() for w in models if (m := _MODEL_RE.match(w))}
    said: set[str] = set()
    for name in id_names:
        in_name = models_in(name, prefixes)
        if in_name and len(in_name & models) != 1:
            return {}
        said |= in_name
    models &= said
    out: dict[str, set[tuple[str, str]]] = {}
    for macro, value in files.items():
        if (model := _model_of(macro, models)) is not None:
            out.setdefault(value, set()).add((model, macro))
    return {
        value: (chips.pop(), sorted(m for _, m in pairs)[0])
        for value, pairs in out.items()
        if len(chips := {chip for chip, _ in pairs}) == 1
    }
