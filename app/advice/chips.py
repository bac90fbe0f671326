"""Which catalog chip a NIC is, where the inventory could not say but its driver can."""

from __future__ import annotations

from sbctune.catalog import Catalog, Chip
from sbctune.catalog.kernel_drivers import chip_by_speed
from sbctune.inventory.model import Nic


def usb3_only_driver(catalog: Catalog, driver: str) -> Chip | None:
    """A driver that drives only USB 3 add-in NICs (r8152: RTL8153/RTL8156): whichever chip it
    is, it is a USB 3 adapter. Returns the slowest, so quoted figures stay conservative."""
    chips = [c for c in catalog.chips_by_driver(driver) if c.is_nic and not c.builtin]
    if not chips or not all((c.usb_generation or "").startswith("3") for c in chips):
        return None
    return min(chips, key=lambda c: c.line_rate_mbps or 0)


def chip_of(catalog: Catalog, nic: Nic) -> tuple[Chip | None, bool]:
    """The NIC's chip and whether it was identified (False: inferred from a USB 3-only driver)."""
    if nic.catalog_id:
        chip = catalog.chip(nic.catalog_id)
        if chip is not None:
            return chip, True
    if nic.bus == "usb" and nic.driver:
        return usb3_only_driver(catalog, nic.driver), False
    return None, False


def speed_family(catalog: Catalog, nic: Nic) -> tuple[str, list[Chip]] | None:
    """The NIC's chip when Inspect named it as the family its driver and link speed leave
    (r8169 at 2.5 Gbit/s: "RTL8125/RTL8126 ..."), by the same table the inventory reads
    (catalog.kernel_drivers.chip_by_speed, from inventory.nic_chip.chip_otherwise), with the
    catalog's chips of that family whose line rate is this link (whose figures apply here)."""
    if nic.catalog_id or not nic.chip or not nic.driver or not nic.link_speed_mbps:
        return None
    family = chip_by_speed(nic.driver, nic.link_speed_mbps)
    if family is None or nic.chip != family:
        return None  # the chip came from something else: not this rule's to speak for
    chips = [
        c
        for c in catalog.chips_by_driver(nic.driver)
        if c.is_nic and nic.driver in c.drivers.in_tree and c.line_rate_mbps == nic.link_speed_mbps
    ]
    return (family, chips) if chips else None
