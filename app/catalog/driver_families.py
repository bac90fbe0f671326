"""The family of chips a driver drives, in the kernel's words, for a NIC whose chip no line
names (``resources/kernel_source/driver_families.json``, generated from the Kconfig of
Debian's linux-source-6.1 and 6.12 by ``scripts/regen_driver_families.py``).

ixgbe drives the 82598, 82599, X540, X550, X552 and X553 (catalog.driver_chips), so a NIC seen
only through ixgbe's lines has no chip; what the kernel's own option for it says, "Intel(R)
10GbE PCI Express adapters support" (drivers/net/ethernet/intel/Kconfig, config IXGBE), is
true of every one of them. The wording names the driver's family and quotes the kernel's option
as the source has it, so it cannot read as a chip claim (the s12 walk: an I340's 82580 on igb
read "one of “Intel 82575/82576 ...”"); it is kept apart from the chip (``Nic.chip_family``)
and given only when no chip and no IDs are known. Only drivers
of cards or dongles only (PCI, USB, SDIO) get one: an SoC's MAC is "built into the SoC" (and
a driver that also binds one, stmmac's, is named in Kconfig for its generic glue), and a USB
class driver (cdc_ether, rndis_host ...) drives any maker's chip.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers

# Words of a Kconfig prompt that are about the option, not the chips: "Intel(R) ... support".
_TRADEMARK = re.compile(r"\s*\((?:R|TM|r|tm)\)")
_OPTION_WORDS = re.compile(r"(?:\s+(?:core\s+)?(?:support|driver|drivers))+\s*$", re.I)
_BUSES = ("pci", "usb", "sdio")


@dataclass(frozen=True)
class DriverFamily:
    driver: str
    family: str  # the prompt, as the source has it: "Intel(R) 10GbE PCI Express adapters support"
    source: str  # "drivers/net/ethernet/intel/Kconfig: config IXGBE"
    series: tuple[str, ...]

    @property
    def words(self) -> str:
        """The family in plain words: "Intel 10GbE PCI Express adapters"."""
        text = _OPTION_WORDS.sub("", _TRADEMARK.sub("", self.family)).strip()
        return text or self.family

    def sentence(self) -> str:
        """What a user reads where the chip would be."""
        return (
            f"a chip of the {self.driver} driver's family (the kernel's Kconfig: “{self.family}”)"
        )


@functools.cache
def _table() -> dict[str, DriverFamily]:
    from sbctune.catalog.table_cache import json_file
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "driver_families.json")
        rows = json_file("driver-families", path).get("families", {})
    except (OSError, ValueError):
        return {}
    found = {}
    for name, row in rows.items() if isinstance(rows, dict) else ():
        if isinstance(row, dict) and isinstance(row.get("family"), str):
            series = tuple(str(s) for s in row.get("series", ()) if isinstance(s, str))
            found[name] = DriverFamily(name, row["family"], str(row.get("source", "")), series)
    return found


def driver_family(driver: object) -> DriverFamily | None:
    """The family of a card's or dongle's driver that drives chips of its own; None for an
    SoC's MAC, a USB class driver, or a driver the kernel's tables do not hold."""
    if not isinstance(driver, str) or not driver:
        return None
    family = _table().get(driver) or _table().get(driver.replace("-", "_"))
    known = load_kernel_drivers().get(driver)
    if family is None or known is None or known.protocol:
        return None
    # a driver that also binds an SoC's MAC (stmmac's glue, brcmfmac's platform part) is
    # named for its generic part: no family
    if load_ids().is_generic_usb(driver) or not all(b in _BUSES for b in known.buses):
        return None
    return family


def family_sentence(driver: object) -> str | None:
    family = driver_family(driver)
    return family.sentence() if family else None
