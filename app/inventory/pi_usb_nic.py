"""The Raspberry Pi's own USB Ethernet, told by where it sits, not guessed from its driver.

smsc95xx binds the LAN9500 dongles as well as the LAN9512/LAN9514 soldered onto the Pi 1 B,
B+, 2 B and 3 B, so its name alone is no chip (catalog.driver_chips). Its place is: the
LAN951x is a hub with the Ethernet inside on its port 1, the hub on port 1 of bus 1 ("1-1.1"),
with 3 ports (LAN9512: 2 sockets and the Ethernet) or 5 (LAN9514: 4 and the Ethernet), and that
bus's root hub is the BCM283x's own DWC OTG controller (dwc_otg, Raspberry Pi's driver; dwc2
upstream). A Pi 4 or 5 has an xHCI root hub there; a Zero has no hub of its own.

lan78xx binds the LAN7800 dongles (USB 3) as well as the 3 B+'s LAN7515, a LAN7800 packaged
with a USB 2.0 hub. The kernel's own binding example "based on the configuration for a
Raspberry Pi 3 B+" (Documentation/devicetree/bindings/net/microchip,lan78xx.txt, Linux 6.1)
places it: root port 1, a hub (usb424,2514), its port 1, a second hub (usb424,2514), its port 1
the Ethernet (usb424,7800): "1-1.1.1", below a 4-port and a 3-port hub as `lsusb -t` shows them
(tests/captures/corpus/pi3bplus_re4son_6_*). There it is the board's own NIC on USB 2.0 by
design, not a USB 3 dongle in the wrong port.
"""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.catalog import Catalog, Chip
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import Parsed

_PI_OTG = ("dwc_otg", "dwc2")


@dataclass(frozen=True)
class _Place:
    driver: str
    nic_path: str  # the Ethernet's USB port path
    hubs: tuple[tuple[str, tuple[int, ...]], ...]  # (port path on bus 1, its port counts)


_PLACES = (
    _Place("smsc95xx", "1-1.1", (("1", (3, 5)),)),  # LAN9512 / LAN9514
    _Place("lan78xx", "1-1.1.1", (("1", (4,)), ("1.1", (3,)))),  # the 3 B+'s LAN7515
)


@dataclass(frozen=True)
class OwnUsbNic:
    chip: Chip  # the catalog's chip (figures, problems)
    name: str  # the boards' own name for it where they agree ("Microchip LAN7515")


def pi_own_usb_nic(nic: Nic, parsed: Parsed, catalog: Catalog) -> OwnUsbNic | None:
    """The Pi boards' own USB NIC for this driver, when `lsusb -t` shows the NIC at its place
    below the BCM283x's OTG root hub (the module docstring)."""
    if nic.bus != "usb" or not nic.driver or not _at_its_place(nic, parsed):
        return None
    return _boards_own(nic.driver, catalog)


def _at_its_place(nic: Nic, parsed: Parsed) -> bool:
    """Whether `lsusb -t` (else the kernel log) shows the NIC at its driver's place: its port
    path, the hubs above it with their port counts, and bus 1's root hub the Pi's own OTG
    controller."""
    tree = parsed.usb_tree
    place = next((p for p in _PLACES if p.driver == nic.driver), None)
    if place is None or nic.bus_path != place.nic_path:
        return False
    if tree is None:
        return _logged_at_its_place(place, parsed)
    root = tree.root_hub(1)
    if root is None or (root.driver or "").split("/")[0] not in _PI_OTG:
        return False
    for path, ports in place.hubs:
        hub = [n for n in tree.nodes if n.bus == 1 and n.port_path == path and not n.is_root_hub]
        if not hub or hub[0].hub_ports not in ports:
            return False
    return True


def _logged_at_its_place(place: _Place, parsed: Parsed) -> bool:
    """The kernel log's form of the place: every device it shows enumerated on bus 1 was
    enumerated by the Pi's OTG controller (hub.c hub_port_init(): "new high-speed USB device
    number N using dwc_otg"), and each hub above the NIC whose ports the log counts (hub.c
    hub_configure(): "hub 1-1:1.0: 4 ports detected") has its place's count. A log that counts
    no hub leaves one doubt: a Pi Zero or A+ (the OTG controller, no hub of their own) with two
    stacked hubs could put a LAN7800 dongle at 1-1.1.1; no paste seen does."""
    dmesg = parsed.dmesg
    if dmesg is None:
        return False
    hcds = {
        e.fields.get("hcd")
        for e in dmesg.of_kind("usb_new_device")
        if e.fields.get("device", "").startswith("1-")
    }
    if not hcds or not hcds <= set(_PI_OTG):
        return False
    counted = _hub_ports(parsed.dmesg_text)
    return all(counted.get(f"1-{path}", ports[0]) in ports for path, ports in place.hubs)


def _hub_ports(text: str) -> dict[str, int]:
    """Each hub's port count the log shows ("hub 1-1.1:1.0: 3 ports detected" -> {"1-1.1": 3}),
    read by plain text, no pattern: one pass over the places " detected" stands."""
    counts: dict[str, int] = {}
    pos = text.find(" detected")
    while pos >= 0:
        words = text[text.rfind("\n", 0, pos) + 1 : pos].split()
        hub, device, number, unit = ["", "", "", "", *words][-4:]
        ascii_number = number.isascii() and number.isdigit()
        if hub == "hub" and device.endswith(":1.0:") and ascii_number and unit in ("port", "ports"):
            counts[device.removesuffix(":1.0:")] = int(number)
        pos = text.find(" detected", pos + 1)
    return counts


def _boards_own(driver: str, catalog: Catalog) -> OwnUsbNic | None:
    """The catalog's chip for the boards' built-in USB NIC of this driver, where the boards
    name one chip (and a NIC), with their own name for it where they agree."""
    own = [
        b.builtin_nic
        for b in catalog.boards
        if b.builtin_nic is not None
        and b.builtin_nic.bus == "usb"
        and b.builtin_nic.driver == driver
    ]
    chips = {o.chip for o in own}
    chip = catalog.chip(chips.pop()) if len(chips) == 1 else None
    if chip is None or chip.kind != "nic":
        return None
    names = {o.chip_name for o in own}
    return OwnUsbNic(chip, names.pop() if len(names) == 1 else chip.name)
