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


# `lsusb -t` prints an interface's class by usb.ids' name only ("C ef  Miscellaneous Device",
# "C 0a  CDC Data", "C e0  Wireless", "C 02  Communications"; usbutils lsusb-t.c), never its
# subclass and protocol.
_CLASS_CODES = {
    "miscellaneous device": "ef",
    "cdc data": "0a",
    "wireless": "e0",
    "communications": "02",
}
# Communications (02) interfaces are also CDC ACM serial ports, bound by class by cdc_acm
# (drivers/usb/class/cdc-acm.c acm_ids: USB_INTERFACE_INFO(USB_CLASS_COMM,
# USB_CDC_SUBCLASS_ACM, ...)), which this table of drivers/net/usb does not hold: by its name
# alone a Communications interface beside CDC Data may be a modem's AT port.
_SHARED_CLASSES = {"02"}


def tree_class_drivers(class_names: list[str]) -> list[str]:
    """The network class drivers that bind a device whose `lsusb -t` interfaces are named
    `class_names`: a CDC Data interface (0a, the data half of a CDC network function) beside
    one of a class that, in every row of the table, only network class drivers bind (ef:
    rndis_host, as an Android phone's tethering function is ef/04/01 + CDC Data). [] otherwise."""
    codes = {_CLASS_CODES.get(name.strip().lower()) for name in class_names if name}
    if "0a" not in codes:
        return []
    found: dict[str, None] = {}
    for code in sorted(c for c in codes if c and c != "0a" and c not in _SHARED_CLASSES):
        for triple, drivers in _table().items():
            if triple.startswith(code + "/"):
                found.update((str(d), None) for d in drivers)
    return list(found)


# the bus and the class family: ACM serial ports are "CDC" too (CDC-ACM)
_NOT_PROTOCOLS = {"USB", "CDC"}


@functools.cache
def protocol_words() -> dict[str, str]:
    """The network models the class drivers name in their MODULE_DESCRIPTION (cdc_mbim "USB
    CDC MBIM host driver", cdc_ncm "... NCM ...", cdc_eem "USB CDC EEM", rndis_host "... RNDIS
    driver"), each with its driver: a USB device whose own product string names one ("MBIM + 3
    CDC-ACM") offers that network function."""
    import re

    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    known = load_kernel_drivers()
    words: dict[str, str] = {}
    for driver in sorted(class_drivers()):
        found = known.get(driver)
        about = found.about if found is not None else ""
        for word in re.findall(r"\b[A-Z]{3,5}\b", about):
            if word not in _NOT_PROTOCOLS:
                words.setdefault(word, driver)
    return words
