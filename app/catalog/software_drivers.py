"""The kernel's software network drivers by the name their get_drvinfo writes (`ethtool -i`'s
"driver:" line): resources/kernel_source/no_queue_drivers.json's "drvinfo", generated from
Debian's 6.1 and 6.12 source by scripts/regen_no_queue_drivers.py (vlan_ethtool_get_drvinfo's
"802.1Q VLAN Support", br_getinfo's "bridge", bond_ethtool_get_drvinfo's "bonding", veth,
macvlan, ipvlan, team ...). A device that answers with one is software whatever its name: a
VLAN named vlan10 is printed vlan10@eth0 as a DSA user port is (audit 43)."""

from __future__ import annotations

import functools
import json

_MAX_NAME = 32  # ethtool_drvinfo.driver is 32 bytes


@functools.cache
def _names() -> dict[str, str]:
    """driver name -> its source file."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "no_queue_drivers.json")
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        return {
            str(entry["drvinfo"]): str(rel)
            for rel, entry in files.items()
            if entry.get("kind") == "software" and entry.get("drvinfo")
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def software_driver_file(name: object) -> str | None:
    """The source file of the software driver whose get_drvinfo writes exactly this name;
    None for any other text."""
    if not isinstance(name, str) or not 0 < len(name) <= _MAX_NAME:
        return None
    return _names().get(name)
