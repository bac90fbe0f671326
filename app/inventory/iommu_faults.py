"""An IOMMU's report of a DMA it refused (parsers/dmesg_patterns_bus.py "iommu_fault") as a fact
about the device that issued it: AMD-Vi's IO_PAGE_FAULT names it by its own dev_printk prefix
or by `device=`, Intel's DMAR by `Request device [bb:dd.f]`. The line's prefix is the device's
driver only when the line is printed on the device itself (pci_err(pdev, ...)); the IOMMU's own
pr_err lines name no driver."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, device_keys

_SRC = "dmesg"
# pci_err() on a device no driver has bound prints the bus's own name: not a driver
_NOT_DRIVERS = {"pci", "pcieport"}


def _source(event: DmesgEvent) -> str | None:
    """The faulting device's address as the line gives it (`device=` or `[bb:dd.f]`)."""
    f = event.fields
    if f.get("source"):
        return f["source"]
    if f.get("bus"):
        return f"{f['bus']}:{f['slot']}.{f['fn']}"
    return None


def on_iommu_fault(event: DmesgEvent) -> Sighting | None:
    """The faulting PCI device gets the line (counted: each event is a lost transfer)."""
    source = _source(event)
    found = device_keys(source or event.device)
    if found is None or found[0] != "pci":
        return None
    sighting = Sighting([found[1]])
    driver = event.driver
    if driver and source is None and driver not in _NOT_DRIVERS:
        sighting.add("driver", driver, _SRC, event.text, event.line)
    sighting.add("iommu_fault", event.text, _SRC, event.text, event.line)
    return sighting
