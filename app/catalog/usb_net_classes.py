"""The USB interface classes the kernel's USB network drivers bind by class alone
(``resources/kernel_source/usb_net_classes.json``, generated from Debian's linux-source-6.1
and 6.12 by ``scripts/regen_usb_net_classes.py``: every ``USB_INTERFACE_INFO()`` of
drivers/net/usb/): CDC ECM/EEM/NCM/MBIM, RNDIS (an Android phone's ``ef/04/01``)."""

from __future__ import annotations

import functools
import json


@functools.cache
def _table() -> dict[str, list[str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "usb_net_classes.json")
        classes = json.loads(path.read_text(encoding="utf-8")).get("classes", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return classes if isinstance(classes, dict) else {}


def net_class_drivers(triples: list[str]) -> list[str]:
    """The class drivers that bind any of these interface classes ("ef/04/01": rndis_host)."""
    found: dict[str, None] = {}
    for triple in triples:
        for driver in _table().get(triple.lower(), []):
            found[str(driver)] = None
    return list(found)


def class_drivers() -> frozenset[str]:
    """Every driver that binds some interface class by class alone (cdc_ether, rndis_host ...)."""
    return frozenset(str(d) for drivers in _table().values() for d in drivers)
