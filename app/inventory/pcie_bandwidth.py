"""The PCI core's bandwidth line (drivers/pci/pci.c __pcie_print_link_status(), printed at
enumeration and by drivers that call pcie_print_link_status()) as the device's PCIe link:
"2.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x1 link at 0002:00:00.0
(capable of 4.000 Gb/s with 5.0 GT/s PCIe x1 link)". pcie_bandwidth_available() walks from the
device up to the root and names the slowest link on the way, so the device gets that link's
speed and width, and the card's own capability (pcie_bandwidth_capable()) is what it could do:
the same two facts `lspci -vv` shows as LnkSta and LnkCap (lspci, a snapshot, ranks first)."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.parsers.lspci import PciDevice
from sbctune.inventory.sightings import Sighting, device_keys

_SRC = "dmesg"


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def on_pcie_bandwidth(event: DmesgEvent) -> Sighting | None:
    found = device_keys(event.device)
    if found is None or found[0] != "pci":
        return None
    f = event.fields
    speed = _number(f.get("speed") or f.get("speed2"))
    width = _number(f.get("width") or f.get("width2"))
    if speed is None or width is None:
        return None
    limited = f.get("max_speed") is not None  # "limited by ...": below what the card can do
    max_speed = _number(f.get("max_speed")) if limited else speed
    max_width = _number(f.get("max_width")) if limited else width
    link = PciDevice(
        slot=event.device,
        lnksta_speed_gts=speed,
        lnksta_width=int(width),
        lnkcap_speed_gts=max_speed,
        lnkcap_width=int(max_width) if max_width is not None else None,
        link_lines=[event.text[:300]],
    )
    sighting = Sighting([found[1]])
    sighting.add("bus", "pci", _SRC, event.text, event.line)
    sighting.add("pcie", link, _SRC, event.text, event.line)
    return sighting
