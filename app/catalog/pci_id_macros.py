"""The kernel's own name for a PCI device ID a network driver binds: the macro its ID table
uses (igc_main.c igc_pci_tbl[]'s IGC_DEV_ID_I225_K2 for 0x3101, igc_hw.h), read from the 6.1
and 6.12 source by scripts/regen_pci_id_macros.py (resources/kernel_source/pci_id_macros.json).
pci.ids may name such an ID by the product it was sold as ("Killer E3100X ..."); the macro
names the chip the driver takes it for."""

from __future__ import annotations

import functools
import json
import posixpath


@functools.cache
def _dirs() -> dict[str, dict[str, str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "pci_id_macros.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["dirs"]
        return {str(d): {str(k): str(v) for k, v in ids.items()} for d, ids in rows.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def id_macro(source_file: str, device_id: str) -> str:
    """The macro the ID tables beside `source_file` (a driver's drivers/net file) name the
    device ID "dddd" by; "" when none does."""
    return _dirs().get(posixpath.dirname(source_file), {}).get(device_id.lower(), "")
