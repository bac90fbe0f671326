"""Chips a driver's firmware names (``resources/kernel_source/firmware_chips.json``: file names,
macro-built and struct-held names and prefixes, generated from Debian's 6.1 and 6.12 sources by
``scripts/regen_firmware_chips.py``): the chip a ``Direct firmware load for …`` line or a
firmware folder in a message points to, and a hardware name a message says alone.

Split from ``kernel_drivers`` (the drivers' own table): the firmware tables are their own data.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from sbctune.catalog.vendor_formats import vendor_firmware_chip


@functools.cache
def _firmware_table() -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        text = (
            resource_root()
            .joinpath("kernel_source", "firmware_chips.json")
            .read_text(encoding="utf-8")
        )
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _firmware_chips() -> dict[str, Any]:
    found = _firmware_table().get("firmware")
    return found if isinstance(found, dict) else {}


def _macro_chips() -> dict[str, Any]:
    """Files named for their chip by the driver's own macro (FIRMWARE_AR9271 "htc_9271.fw")."""
    found = _firmware_table().get("macros")
    return found if isinstance(found, dict) else {}


def _struct_chips() -> dict[str, Any]:
    """Files a driver's ID table names per device through its struct (mwifiex_sdio's
    SD8887_DEFAULT_FW_NAME for SDIO_DEVICE_ID_MARVELL_8887_WLAN)."""
    found = _firmware_table().get("structs")
    return found if isinstance(found, dict) else {}


def _case_chips() -> dict[str, Any]:
    """Files a driver picks in a switch on the device's ID (mwifiex_pcie's
    PCIEUSB8997_FW_NAME_V4 under case PCIE_DEVICE_ID_MARVELL_88W8997)."""
    found = _firmware_table().get("cases")
    return found if isinstance(found, dict) else {}


@functools.cache
def _prefixes() -> list[tuple[str, bool, dict[str, Any]]]:
    """(prefix, as the log prints it, row), longest first: a file's name is matched by the
    longest prefix it starts with ("iwlwifi-7265D-" before "iwlwifi-7265-")."""
    rows = _firmware_table().get("prefixes")
    found: list[tuple[str, bool, dict[str, Any]]] = []
    for prefix, row in (rows if isinstance(rows, dict) else {}).items():
        if not isinstance(row, dict) or "chip" not in row:
            continue
        found.append((prefix, False, row))
        cut = str(row.get("logged_without") or "")
        if cut and prefix.startswith(cut) and len(prefix) > len(cut):
            found.append((prefix[len(cut) :], True, row))  # iwlwifi prints "7260-17.ucode"
    return sorted(found, key=lambda item: -len(item[0]))


_PATH_TOKEN = re.compile(r"(?<![\w./-])([\w-]+(?:/[\w.-]+)+)/?(?![\w/])")


def firmware_dir_in(text: str) -> str | None:
    """A driver's firmware directory its line names ("failed to fetch board-2.bin or board.bin
    from ath10k/QCA4019/hw1.0": ath10k's hw_params.fw.dir) as a prefix of the firmware table,
    with its slash: the chip it is for is that prefix's."""
    if "/" not in text:
        return None
    rows = _firmware_table().get("prefixes")
    table = rows if isinstance(rows, dict) else {}
    for found in _PATH_TOKEN.finditer(text[:400]):
        if (path := found.group(1) + "/") in table:
            return path
    return None


@functools.cache
def _hw_names() -> frozenset[str]:
    rows = _firmware_table().get("prefixes")
    table = rows if isinstance(rows, dict) else {}
    return frozenset(n for r in table.values() if isinstance(r, dict) for n in r.get("names", []))


def chip_named_alone(message: str) -> str | None:
    """A driver's line that is its chip's name and nothing else (ath11k's "qcn9074 hw1.0", the
    hw_params.name that firmware_chips.json lists for the chip's firmware directory)."""
    said = message.strip()
    return said if len(said) < 40 and said in _hw_names() else None


def chip_by_firmware(driver: object, firmware: object) -> str | None:
    """The chip a driver asks for this firmware file for (r8169's rtl_nic/rtl8168h-2.fw: the
    RTL8168h/8111h), from its chip table (resources/kernel_source/firmware_chips.json); or the
    chip whose file prefix the name starts with (iwlwifi's "iwlwifi-7260-17.ucode", printed as
    "7260-17.ucode": a Wireless 7260; ath11k's "ath11k/WCN6855/hw2.1/amss.bin": a WCN6855); or
    the chip the driver's own macro for the file names (ath9k_htc's htc_9271.fw: AR9271); or
    the chip whose device struct names the file (mwifiex_sdio's mrvl/sd8887_uapsta.bin: SD8887),
    or whose ID's switch case picks it (mwifiex_usb's mrvl/usbusb8997_combo_v4.bin: USB8997).
    The name as the log prints it, cut short, needs the driver that printed it."""
    if not isinstance(firmware, str) or not firmware.strip():
        return None
    name = firmware.split()[0]
    item = (
        _firmware_chips().get(name)
        or _macro_chips().get(name)
        or _struct_chips().get(name)
        or _case_chips().get(name)
    )
    if isinstance(item, dict):
        if isinstance(driver, str) and item.get("driver") != driver:
            return None
        return str(item["chip"]) if "chip" in item else None
    for prefix, cut, row in _prefixes():
        if not name.startswith(prefix):
            continue
        drivers = row.get("drivers") or []
        if isinstance(driver, str) and driver not in drivers:
            continue
        if cut and not isinstance(driver, str):
            continue  # "7260-17.ucode" alone is not iwlwifi's
        return str(row["chip"])
    if (chip := brcmfmac_firmware_chip(name)) and driver in (None, "brcmfmac"):
        return chip
    # an out-of-tree driver's file, by the function that builds its name (vendor_formats.json:
    # morse_driver's mm610x_get_fw_path() makes "morse/mm6108.bin" for an MM6108)
    return vendor_firmware_chip(driver, name)


@functools.cache
def _brcmfmac_bases() -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "brcmfmac_firmware_chips.json")
        found = json.loads(path.read_text(encoding="utf-8")).get("bases")
    except (OSError, ValueError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def brcmfmac_firmware_chip(name: str) -> str | None:
    """The chip a brcmfmac file is for: brcmf_fw_alloc_request() (firmware.c) asks for its base
    then ".<board>.bin", ".bin", ".txt" ... ("brcm/brcmfmac4387c2-pcie.apple,maldives-X3.bin":
    a BCM4387), the base given to chips by the bus file's BRCMF_FW_ENTRY rows
    (brcmfmac_firmware_chips.json, scripts/regen_brcmfmac_firmware_chips.py)."""
    base = name.split(".", 1)[0]
    row = _brcmfmac_bases().get(base)
    if not isinstance(row, dict) or "chip" not in row:
        return None
    chip = str(row["chip"])
    # the base is named by its BRCMF_FW_DEF's model (6.1 sdio.c: BRCMF_FW_DEF(43455,
    # "brcmfmac43455-sdio"), given to BRCM_CC_4345_CHIP_ID from revision 6 by its
    # BRCMF_FW_ENTRY row, and SDIO_DEVICE_ID_BROADCOM_43455 in the same file): a model no chip
    # id spells is the product the chip is sold as (the Pi 3B+'s CYW43455), so it leads
    model = re.match(r"brcm/brcmfmac(\d{4,6})", base)
    if model and model.group(1) not in re.findall(r"BCM(\d+)", chip):
        return f"BCM{model.group(1)} (chip id {chip})"
    return chip
