"""brcmfmac's bus, from the firmware name its chip line prints.

brcmfmac drives SDIO, PCIe and USB chips. Its "brcmfmac: brcmf_fw_alloc_request: using
brcm/brcmfmac43455-sdio for chip BCM4345/6" line (firmware.c, brcmf_fw_alloc_request) names no
device, but the name comes from the table of the bus that probed the chip (sdio.c
brcmf_sdio_fwnames, pcie.c brcmf_pcie_fwnames, usb.c brcmf_usb_fwnames), and each table's
names say their bus (resources/kernel_source/brcmfmac_buses.json). A line that names only the
chip ("Firmware: BCM43430/1 wl0: ...") says its bus when those tables list that chip on one bus
only (resources/kernel_source/brcmfmac_chip_buses.json, scripts/regen_brcmfmac_chip_buses.py).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

# "using brcm/brcmfmac43455-sdio for chip": the name the driver picked (older kernels add ".bin")
_USING = re.compile(
    r"\busing (?:[\w.-]{1,40}/)?(?P<name>brcmfmac[\w.,-]{1,80}?)(?:\.bin)? for chip "
)


@functools.cache
def _table(name: str = "brcmfmac_buses.json") -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        text = resource_root().joinpath("kernel_source", name).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def chip_bus(chip: str | None) -> tuple[str, str] | None:
    """(bus, why) for a chip brcmf_chip_name() wrote ("BCM43430/1": part 43430, revision 1)
    when the bus tables list that part on one bus only, else None."""
    if not chip or not chip.startswith("BCM"):
        return None
    part = chip[3:].split("/", 1)[0].lower()
    if not (4 <= len(part) <= 5 and part.isascii() and part.isalnum()):
        return None
    buses = _table("brcmfmac_chip_buses.json").get("chips", {}).get(part)
    if not isinstance(buses, list) or len(buses) != 1:
        return None
    return str(buses[0]), (
        f"{chip}: only the {buses[0]} bus's BRCMF_FW_ENTRY table lists the part "
        "(drivers/net/wireless/broadcom/brcm80211/brcmfmac sdio.c/pcie.c/usb.c)"
    )


def firmware_bus(text: str) -> tuple[str, str] | None:
    """(bus, why) for a brcmfmac chip line that names its firmware, else None."""
    found = _USING.search(text[:300])
    if found is None:
        return None
    name = found.group("name")
    table = _table()
    for row in table.get("suffixes", []):
        if isinstance(row, dict) and name.endswith(str(row.get("suffix"))):
            return str(row["bus"]), f"{name}: a name of {row['table']} ({row['file']})"
    bare = table.get("no_suffix")
    if isinstance(bare, dict) and re.fullmatch(r"brcmfmac\d{4,5}[a-z]?\d?", name):
        return str(bare["bus"]), f"{name}: a name of {bare['table']} ({bare['file']})"
    return None


def chip_of_id(chip_id: str | None) -> str | None:
    """brcmfmac's chip id as 4.x's brcmf_sdio_probe() printed it ("for chip 0000a9a6"): the
    part number, written in brcm80211/include/brcm_hw_ids.h in hex for four-digit parts
    (BRCM_CC_4345_CHIP_ID 0x4345) and in decimal for five-digit ones (BRCM_CC_43430_CHIP_ID
    43430, 0xa9a6: every one of them 0xa000-0xafff)."""
    if not chip_id or len(chip_id) != 4:
        return None
    try:
        value = int(chip_id, 16)
    except ValueError:
        return None
    return f"BCM{value}" if chip_id[0] in "aA" else f"BCM{chip_id}"
