"""Broadcom's out-of-tree bcmdhd (resources/kernel_source/bcmdhd_lines.json): its lines name
no device and no driver, only the driver's own prefix ("[dhd] "), sometimes the interface
("[dhd] [wlan0] dhd_open : ...", "[dhd-wlan0] ...", "Register interface [wlan0]  MAC: ..."),
and the printing function, whose file is one bus layer's (dhdsdio_*: SDIO, dhdpcie_*: PCIe).
Older trees print the function's name with no prefix; those are read only for the driver's
own name spaces (dhd_, dhdsdio_, dhdpcie_, bcmsdh_)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_MAX_LINE = 400
_MAX_NAME = 15  # IFNAMSIZ - 1


@dataclass(frozen=True)
class BcmdhdTable:
    driver: str
    prefix: str
    iface_open: tuple[str, ...]
    register_iface: str
    bare_prefixes: tuple[str, ...]
    function_buses: tuple[tuple[str, str], ...]
    chip_head: str  # "F1 signature OK, socitype:0x" ... " chip:0x"
    revinfo: re.Pattern[str] | None  # "GET_REVINFO device 0x%x, vendor 0x%x, chipnum 0x%x"


@functools.cache
def bcmdhd_table() -> BcmdhdTable | None:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "bcmdhd_lines.json")
        raw = json.loads(path.read_text(encoding="utf-8"))
        buses = raw["function_buses"]
        return BcmdhdTable(
            str(raw["driver"]),
            str(raw["prefix"]),
            tuple(str(p) for p in raw["iface_open"]),
            str(raw["register_iface"]),
            tuple(str(p) for p in raw["bare_function_prefixes"]),
            tuple(sorted(((str(k), str(v)) for k, v in buses.items()), key=lambda kv: -len(kv[0]))),
            str(raw["chip_format"]).split("%", 1)[0],
            _format_pattern(str(raw.get("revinfo_format") or "")),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _format_pattern(fmt: str) -> re.Pattern[str] | None:
    """The table's format past its "%s: " (the function), each %x a hex number (at most 8
    digits: a u32); None for no format."""
    body = fmt.removeprefix("%s: ")
    if not body:
        return None
    parts = [re.escape(p) for p in body.split("%x")]
    return re.compile("([0-9a-fA-F]{1,8})".join(parts))


def brcm_chip_name(number: int) -> str:
    """brcmf_chip_name() (drivers/net/wireless/broadcom/brcm80211/brcmfmac/chip.c, 6.1 and
    6.12): a chip ID above 0xa000 or below 0x4000 is its model in decimal (43752 is 0xaae8,
    BRCM_CC_43752_CHIP_ID), else in hex (0x4359)."""
    return f"BCM{number}" if number > 0xA000 or number < 0x4000 else f"BCM{number:X}"


def _revinfo(text: str, pattern: re.Pattern[str] | None) -> dict[str, str]:
    """dhd_sync_with_dongle()'s "GET_REVINFO device 0x449d, vendor 0x14e4, chipnum 0xaae8":
    the dongle's IDs and its chip."""
    found = pattern.search(text) if pattern is not None else None
    if found is None:
        return {}
    device, vendor, chip = (int(g, 16) for g in found.groups())
    if device > 0xFFFF or vendor > 0xFFFF or not 0 < chip <= 0xFFFF:
        return {}
    return {"ids": f"{vendor:04x}:{device:04x}", "chip": brcm_chip_name(chip)}


def _function(text: str) -> str:
    """The C identifier a line begins with ("dhdsdio_probe_init: ..." -> dhdsdio_probe_init)."""
    end = 0
    while end < len(text) and end < 64 and text[end] in _IDENT:
        end += 1
    return text[:end] if end and text[end : end + 1] in (":", " ", "(") else ""


def _after_tag(text: str) -> str:
    """Past a message class's tag ("CFG80211-ERROR) ", "STATIC-MSG) "): an upper-case word."""
    head, sep, rest = text.partition(") ")
    return rest if sep and len(head) <= 24 and " " not in head and head.upper() == head else text


def _iface(text: str, opener: str) -> str | None:
    name, sep, _rest = text[len(opener) :].partition("]")
    ok = sep and 0 < len(name) <= _MAX_NAME and all(c in _IDENT or c in ".-" for c in name)
    return name if ok else None


def bcmdhd_line(msg: str) -> tuple[str, dict[str, str]] | None:
    """("bcmdhd", fields) for a line bcmdhd printed, or None. Fields: "iface" (the interface
    the line names), "bus" (the bus of its printing function's file), "chip" ("BCM4359")."""
    table = bcmdhd_table()
    if table is None or len(msg) > _MAX_LINE:
        return None
    text = msg.strip()
    fields: dict[str, str] = {}
    prefixed = False
    for opener in table.iface_open:
        if text.startswith(opener):
            if (name := _iface(text, opener)) is None:
                return None
            fields["iface"] = name
            text = text[len(opener) + len(name) + 1 :].lstrip()
            prefixed = True
            break
    if not prefixed and text.startswith(table.prefix.rstrip()):
        text = text[len(table.prefix.rstrip()) :].lstrip()
        prefixed = True
    registered = prefixed and text.startswith(table.register_iface)
    if registered and (name := _iface(text, table.register_iface)) is not None:
        fields["iface"] = name
    function = _function(_after_tag(text))
    own = prefixed or (function and function.startswith(table.bare_prefixes))
    if not own and not text.startswith(table.chip_head):
        return None
    for head, bus in table.function_buses:
        if function.startswith(head):
            fields["bus"] = bus
            break
    if text.startswith(table.chip_head):
        chip = text.partition(" chip:0x")[2][:4]
        if len(chip) == 4 and all(c in "0123456789abcdefABCDEF" for c in chip):
            fields["chip"] = brcm_chip_name(int(chip, 16))
            fields.setdefault("bus", "sdio")  # dhd_sdio.c's probe reads the F1 signature
    elif "GET_REVINFO" in text:
        fields.update(_revinfo(text, table.revinfo))
    return "bcmdhd", fields
