"""The product names a driver's own tables give its devices, which it prints when it matched
one (``resources/kernel_source/detected_names.json``, generated from Debian's linux-source-6.1
and 6.12 by ``scripts/regen_detected_names.py``): "iwlwifi 0000:00:06.0: Detected Intel(R)
Wi-Fi 6E AX211 160MHz" (6.12 pcie/drv.c iwl_pci_probe(); "Detected %s, REV=0x%X" in
mvm/ops.c and dvm/main.c). The name is the chip: for an integrated (CNVi) part pci.ids names
only the chipset's Wi-Fi function, the driver's name the product its RF module makes it.

A message is read only if, after "Detected ", it is one of the table's names (a set look-up;
no text from a Pi is made a regex)."""

from __future__ import annotations

import functools
import json

_PREFIX = "Detected "
_REV = ", REV=0x"


@functools.cache
def _names() -> dict[str, frozenset[str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "detected_names.json")
        drivers = json.loads(path.read_text(encoding="utf-8"))["drivers"]
        return {d: frozenset(row["names"]) for d, row in drivers.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def detected_name(driver: str | None, message: str) -> str | None:
    """The product name in a driver's "Detected <name>[, REV=0x..]" line, if its table has it."""
    known = _names().get(driver or "")
    if not known or not message.startswith(_PREFIX):
        return None
    said = message[len(_PREFIX) : len(_PREFIX) + 120].strip()
    said = said.partition(_REV)[0] if _REV in said else said
    return said if said in known else None
