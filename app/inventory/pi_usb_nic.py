"""The Raspberry Pi's own USB Ethernet, told by where it sits, not guessed from its driver.

smsc95xx binds the LAN9500 dongles as well as the LAN9512/LAN9514 soldered onto the Pi 1 B,
B+, 2 B and 3 B, so its name alone is no chip (catalog.driver_chips). Its place is: the
LAN951x is a hub with the Ethernet inside on its port 1, the hub on port 1 of bus 1 ("1-1.1"),
with 3 ports (LAN9512: 2 sockets and the Ethernet) or 5 (LAN9514: 4 and the Ethernet), and that
bus's root hub is the BCM283x's own DWC OTG controller (dwc_otg, Raspberry Pi's driver; dwc2
upstream). A Pi 4 or 5 has an xHCI root hub there; a Zero has no hub of its own.
"""

from __future__ import annotations

from sbctune.catalog import Catalog, Chip
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import Parsed

_PI_OTG = ("dwc_otg", "dwc2")
_LAN951X_HUB_PORTS = (3, 5)


def pi_own_usb_chip(nic: Nic, parsed: Parsed, catalog: Catalog) -> Chip | None:
    """The catalog chip of the Pi boards' own USB NIC for this driver, when `lsusb -t` shows the
    NIC at its place: port 1 of a 3- or 5-port hub on port 1 of the BCM283x's OTG root hub."""
    tree = parsed.usb_tree
    if nic.bus != "usb" or not nic.driver or nic.bus_path != "1-1.1" or tree is None:
        return None
    root = tree.root_hub(1)
    if root is None or (root.driver or "").split("/")[0] not in _PI_OTG:
        return None
    hub = [n for n in tree.nodes if n.bus == 1 and n.port_path == "1" and not n.is_root_hub]
    if not hub or hub[0].hub_ports not in _LAN951X_HUB_PORTS:
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
