"""What a usbnet driver's `ethtool -i` says that is not what it seems.

usbnet_get_drvinfo (drivers/net/usb/usbnet.c, Linux 6.1 and 6.12) writes the mini-driver's
`driver_info->description` into the fw_version field, and the drivers that wrap it (asix, dm9601,
mcs7830, sr9800, sierra_net) keep it (aqc111 writes its firmware's version over it), so a
smsc95xx, cdc_ether or cdc_ncm NIC shows "firmware-version: smsc95xx USB 2.0 Ethernet" or
"CDC NCM (NO ZLP)": the driver's name for the device, not a firmware. The descriptions are
generated from the source (resources/kernel_source/usbnet_descriptions.json,
scripts/regen_usbnet_descriptions.py).
"""

from __future__ import annotations

import json
from functools import lru_cache

from sbctune.catalog.usb_net_classes import class_drivers
from sbctune.resources import resource_root


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, list[str]]]:
    path = resource_root().joinpath("kernel_source").joinpath("usbnet_descriptions.json")
    found: dict[str, dict[str, list[str]]] = json.loads(path.read_text(encoding="utf-8"))[
        "descriptions"
    ]
    return found


def _descriptions() -> frozenset[str]:
    return frozenset(_table())


def only_description(source_file: str) -> str | None:
    """The description of the one driver_info a driver's file has (smsc95xx.c: "smsc95xx USB 2.0
    Ethernet"); None where it has none or several (cdc_ncm.c: it depends on the device)."""
    found = [d for d, row in _table().items() if source_file in row["files"]]
    return found[0] if len(found) == 1 else None


def description_naming(source_file: str, chip: str) -> str | None:
    """The one description of `source_file`'s driver_infos that names `chip` as a word (asix:
    "AX88772B" -> "ASIX AX88772B USB 2.0 Ethernet", not the AX88772's); None where none or
    several do."""
    if not chip:
        return None
    wanted = chip.upper()
    found = [d for d, row in _table().items() if source_file in row["files"]
             and wanted in d.upper().replace("/", " ").split()]  # fmt: skip
    return found[0] if len(found) == 1 else None


def class_description(text: str | None) -> bool:
    """Whether `text` is the description of a driver_info of a driver that binds by interface
    class alone (cdc_ether's "CDC Ethernet Device", rndis_host's "RNDIS device"): the class
    driver's name for what it drives, never a chip's (cdc_subset's "ALi M5632" is not one)."""
    if not text:
        return False
    row = _table().get(str(text).strip())
    drivers = class_drivers()
    return row is not None and any(
        f.rsplit("/", 1)[-1].removesuffix(".c") in drivers for f in row["files"]
    )


def usbnet_description(text: str | None) -> bool:
    """Whether `ethtool -i`'s firmware-version is a usbnet mini-driver's description."""
    return bool(text) and str(text).strip() in _descriptions()
