"""A setting the driver may or may not have, by the running kernel: "this Pi's kernel does not
offer this for the driver (other kernels may)", not a flat no for the driver (the s12 walk on
pi5-macb: Inspect said macb "does not offer interrupt coalescing" while driver_caps holds the
Raspberry Pi tree's gem_get_coalesce as unknown below rpi-6.18.y and carried from it, and the Pi
showed no kernel version). An ethtool read the driver refused ("Operation not supported") is
worded so when the driver's ethtool op is one the table leaves unsure for this kernel and chip
(``DriverCaps.unsure``: an unknown kernel, or a branch no source shows carrying it or not)."""

from __future__ import annotations

import re

from sbctune.inventory.model import Inventory
from sbctune.inventory.warning_words import DEPENDS, MAY_NOT_OFFER
from sbctune.tuning import driver_caps

NOT_OFFERED = "the driver does not offer this"
MAY_NOT = f"{MAY_NOT_OFFER} ({DEPENDS})"
# ethtool's read option → the driver's ethtool_ops callback that answers it
_OPS = {
    "-c": "get_coalesce",
    "--show-eee": "get_eee",
    "-g": "get_ringparam",
    "-l": "get_channels",
    "-a": "get_pauseparam",
    "-S": "get_ethtool_stats",
}
_REFUSED = re.compile(
    r"“ethtool (-[a-zA-Z]|--show-eee) ([\w.@-]{1,32})”: " + re.escape(NOT_OFFERED)
)


def soften_unsure_refusals(inventory: Inventory) -> None:
    """Reword, in place, the refusals of ops this kernel may or may not have."""
    nics = {nic.name: nic for nic in inventory.nics if nic.name}
    for i, warning in enumerate(inventory.warnings):
        found = _REFUSED.match(warning)
        nic = nics.get(found.group(2)) if found else None
        if found is None or nic is None:
            continue
        caps = driver_caps.caps(nic.driver, inventory.board.kernel, nic.chip)
        if caps is not None and _OPS.get(found.group(1), "") in caps.unsure:
            inventory.warnings[i] = warning.replace(NOT_OFFERED, MAY_NOT, 1)
