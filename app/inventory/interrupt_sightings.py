"""What /proc/interrupts says of the network devices: an interface's vectors (by the names
drivers give request_irq), a PCI device's (by its address or its MSI vector's number) and a
device-tree MAC's (by its platform device's name). Split from listing_sightings.py, which reads
the other listings."""

from __future__ import annotations

import re
from collections.abc import Iterator

from sbctune.inventory.msi_hwirq import msi_pci_address
from sbctune.inventory.raw import Parsed
from sbctune.inventory.sightings import Sighting, iface_key, pci_address

# A MAC's interrupt named by its device: of_device_make_bus_id() (drivers/of/platform.c) names a
# device-tree node's platform device "<unit address>.<node name>", and the Devicetree
# Specification's generic name of a network device's node is "ethernet" (2.2.2). Drivers that
# pass dev_name() to request_irq name the line so: mtk_eth_soc's mtk_probe() ("15100000.ethernet",
# openwrt#14843), OpenWrt's ipqess per queue ("c080000.ethernet:txq0", openwrt#16818).
_OF_ETHERNET = re.compile(r"^[0-9a-f]{5,16}\.ethernet$")


def _of_ethernet_irq(device: str, number: int, line: str) -> Sighting:
    sighting = Sighting([("platform", device.split(".")[0])])
    sighting.add("irqs", number, "interrupts", line)
    sighting.add("bus", "platform", "interrupts", line)
    sighting.add("platform_name", device, "interrupts", line)
    return sighting


def from_interrupts(parsed: Parsed) -> Iterator[Sighting]:
    if parsed.interrupts is None:
        return
    for irq in parsed.interrupts.irqs:
        if irq.number is None:
            continue
        line = f"{irq.irq}: {irq.controller or ''} {irq.hwirq or ''} {' '.join(irq.names)}"
        for raw in [t for n in irq.names for t in n.split()]:
            name = raw.rstrip(",")
            # igb "eth1-TxRx-0", bcmgenet "eth0", stmmac with per-queue MSI "eth0:rx-0" and
            # "eth0:mac" (stmmac_request_irq_multi_msi: "%s:%s-%d", "%s:%s")
            base = re.split(r":|-(?:rx|tx|TxRx|txrx|fp|q|ttx|rrx|\d)", name, maxsplit=1)[0]
            key = iface_key(base)
            if key is None or not re.match(r"^(eth|en|wl|wlan|lan|wan)", base):
                if address := pci_address(name):
                    sighting = Sighting([("pci", address)])
                    sighting.add("irqs", irq.number, "interrupts", line)
                    yield sighting
                elif _OF_ETHERNET.match(base):
                    yield _of_ethernet_irq(base, irq.number, line)
                continue
            sighting = Sighting([key])
            sighting.add("irqs", irq.number, "interrupts", line)
            sighting.add("seen", True, "interrupts", line)
            controller = irq.controller or ""
            if found := re.search(r"([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])", controller):
                sighting.keys.append(("pci", found.group(1)))  # IR-PCI-MSI-0000:00:19.0
            if "MSI" in controller:  # PCI-MSI, ITS-MSI: a PCIe device's vectors
                sighting.add("bus_hint", "pci", "interrupts", line)
                if spelled := msi_pci_address(controller, irq.hwirq):
                    sighting.keys.append(("pci", spelled))  # the vector's number (msi_hwirq)
            elif "GIC" in controller:  # wired straight to the SoC's interrupt controller
                sighting.add("bus_hint", "platform", "interrupts", line)
            yield sighting
