"""PCIe Advanced Error Reporting lines (drivers/pci/pcie/aer.c) as facts about the device that
erred: its IDs (aer_print_error()'s "device [%04x:%04x] error status/mask=..."), its driver (the
line's own prefix, never the root port's "pcieport") and the error line itself, counted."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, device_keys

_SRC = "dmesg"
_PORT_DRIVERS = {"pcieport", "pci"}  # the root/downstream port's service driver: not the device's


def on_pcie_aer(event: DmesgEvent) -> Sighting | None:
    """ "alx 0000:07:00.0: AER:   device [1969:e0b1] error status/mask=..." or the port's
    "pcieport 0000:00:1d.0: AER: Corrected error received: 0000:07:00.0": the device named
    (the error's source for the port's line) gets the facts."""
    f = event.fields
    source = f.get("source")
    found = device_keys(source or event.device)
    if found is None or found[0] != "pci":
        return None
    sighting = Sighting([found[1]])
    text, no = event.text, event.line
    if f.get("vendor") and f.get("product"):
        sighting.add("ids", f"{f['vendor']}:{f['product']}", _SRC, text, no)
    driver = f.get("driver")
    if driver and driver not in _PORT_DRIVERS and source is None:
        sighting.add("driver", driver, _SRC, text, no)
    sighting.add("pcie_aer", text, _SRC, text, no)
    return sighting
