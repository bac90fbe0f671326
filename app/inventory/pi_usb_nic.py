"""The Raspberry Pi's own USB Ethernet, told by where it sits, not guessed from its driver.

smsc95xx binds the LAN9500 dongles as well as the LAN9512/LAN9514 soldered onto the Pi 1 B,
B+, 2 B and 3 B, so its name alone is no chip (catalog.driver_chips). Its place is: on those
boards the Ethernet is port 1 of the on-board hub on port 1 of bus 1 ("1-1.1"; the 3 B+'s
LAN7515 one hub further, "1-1.1.1"), and that bus's root hub is the BCM283x's own DWC OTG
controller (dwc_otg, Raspberry Pi's driver; dwc2 upstream). A Pi 4 or 5 has an xHCI root hub
there, where a dongle on port 1-1.1 is just a dongle.
"""

from __future__ import annotations

from sbctune.catalog import Catalog, Chip
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import Parsed

_PORTS = ("1-1.1", "1-1.1.1")  # LAN951x, LAN7515
_PI_OTG = ("dwc_otg", "dwc2")


def pi_own_usb_chip(nic: Nic, parsed: Parsed, catalog: Catalog) -> Chip | None:
    """The catalog chip of the Pi boards' own USB NIC for this driver, when `lsusb -t` shows the
    NIC at that NIC's place below the BCM283x's OTG root hub."""
    tree = parsed.usb_tree
    if nic.bus != "usb" or not nic.driver or nic.bus_path not in _PORTS or tree is None:
        return None
    root = tree.root_hub(1)
    if root is None or (root.driver or "").split("/")[0] not in _PI_OTG:
        return None
    own = {
        b.builtin_nic.chip
        for b in catalog.boards
        if b.builtin_nic is not None
        and b.builtin_nic.bus == "usb"
        and b.builtin_nic.driver == nic.driver
    }
    chip = catalog.chip(own.pop()) if len(own) == 1 else None
    return chip if chip is not None and chip.kind == "nic" else None
