"""The silicon a driver binds by PCI revision
(``resources/kernel_source/pci_revision_silicon.json``, generated from Debian's linux-source-6.1
and 6.12 by ``scripts/regen_pci_revision_silicon.py``): atlantic's hw_atl_boards[] gives device
1d6a:d107 at lspci's "(rev 01)" the A0 silicon's ops and limits (MTU at most 8996), at
"(rev 02)" the B0's. pci.ids names only the device.
"""

from __future__ import annotations

import functools
import json
from typing import Any


@functools.cache
def _table() -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "pci_revision_silicon.json")
        drivers = json.loads(path.read_text(encoding="utf-8")).get("drivers", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return drivers if isinstance(drivers, dict) else {}


def silicon(ids: str | None, revision: str | None) -> str | None:
    """The silicon ("A0") of the PCI device `ids` ("1d6a:d107") at `revision` (lspci's two hex
    digits, "01") by its driver's board table, or None where no table has such a row. Keyed by
    the device, not the bound driver: a card held by vfio-pci is the same silicon."""
    if not ids or not revision:
        return None
    for by_ids in _table().values():
        by_rev = by_ids.get(ids.lower()) if isinstance(by_ids, dict) else None
        found = by_rev.get(revision.lower().zfill(2)) if isinstance(by_rev, dict) else None
        if found:
            return str(found)
    return None
