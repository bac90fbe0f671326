"""A Wi-Fi function that is part of the chipset: Intel's CNVi ("Connectivity Integration") puts
the Wi-Fi MAC in the PCH, at a PCI function of the root bus (00:14.3 on a 700 Series chipset),
beside which only the RF companion (CRF) module sits on an M.2 socket. pci.ids names these
functions after the chipset ("Raptor Lake-S PCH CNVi WiFi", "Cannon Point-LP CNVi
[Wireless-AC]", "CNVi: Wi-Fi"), so the name says the NIC is the machine's own; a discrete card
bound by the same driver (AX200 8086:2723, AX210 8086:2725) is named otherwise."""

from __future__ import annotations

import re

from sbctune.catalog.ids import load_ids

# a word of pci.ids' device name, not a substring of another word
_CNVI = re.compile(r"\bCNVi\b")


def chipset_wifi(bus: str | None, ids: str | None) -> bool:
    """Whether the PCI function `ids` ("8086:7a70") is a chipset's integrated Wi-Fi by pci.ids."""
    if bus != "pci" or not ids:
        return False
    name = load_ids().pci_devices.get(ids.strip().lower())
    return bool(name and _CNVI.search(name))
