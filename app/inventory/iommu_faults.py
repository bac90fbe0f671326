"""The kernel's reports of a device's DMA gone wrong, as facts about that device.

An IOMMU's report of a DMA it refused (parsers/dmesg_patterns_bus.py "iommu_fault"): AMD-Vi's
IO_PAGE_FAULT names the device by its own dev_printk prefix or by `device=`, Intel's DMAR by
`Request device [bb:dd.f]`. The line's prefix is the device's driver only when the line is
printed on the device itself (pci_err(pdev, ...)); the IOMMU's own pr_err lines name no driver.
CONFIG_DMA_API_DEBUG's report ("dma_api_misuse", kernel/dma/debug.c err_printk()) names the
driver and its device after its "DMA-API: " prefix."""

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


def on_dma_api_misuse(event: DmesgEvent) -> Sighting | None:
    """kernel/dma/debug.c's report names the driver and its device: that device's fact."""
    found = device_keys(event.device)
    driver = event.driver
    if found is None or not driver or driver == "NULL":
        return None
    sighting = Sighting([found[1]])
    sighting.add("driver", driver, _SRC, event.text, event.line)
    if found[0] == "platform":  # "1e670000.ftgmac": the device's own name is its bus path
        sighting.add("platform_name", event.device, _SRC, event.text, event.line)
    sighting.add("dma_api_misuse", event.text, _SRC, event.text, event.line)
    return sighting
