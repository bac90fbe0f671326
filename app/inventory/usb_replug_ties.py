"""Ties a USB device a listing shows by its bus and device number (`lsusb`'s "Bus 001 Device
004: ID 2357:010c") to the device the log enumerated at a port with the same IDs under another
number ("usb 1-1: new high-speed USB device number 3 ..."): the device was unplugged and plugged
in again, or reset and renumbered, between the log and the listing. usb_new_device() numbers
a device anew each time it enumerates (drivers/usb/core/hub.c hub_port_connect(): the next free
devnum of the bus, usb_alloc_dev()), so the same stick comes back under a higher number.

Tied only when one device is listed with those IDs and not at a port, one port of the log was
enumerated with them, both on the same bus, and no device of the log had the listed number."""

from __future__ import annotations

from sbctune.inventory.sightings import Key, Sighting

_IDS = "ids"


def _ids(sighting: Sighting) -> str | None:
    return next((str(f.value).lower() for f in sighting.facts if f.field == _IDS), None)


def replugged_usb_ties(found: list[Sighting]) -> list[Sighting]:
    """Tie sightings (the listed bus:device key, the log's port key) for each such device."""
    listed: dict[str, set[str]] = {}  # IDs -> "bus:device" of listings without a port
    ported: dict[str, set[str]] = {}  # IDs -> ports a source names with those IDs
    numbered: dict[str, set[str]] = {}  # port -> "bus:device" the log gave it
    for sighting in found:
        ports = [k[1] for k in sighting.keys if k[0] == "usb"]
        numbers = [k[1] for k in sighting.keys if k[0] == "usbdev"]
        for port in ports:
            numbered.setdefault(port, set()).update(numbers)
        ids = _ids(sighting)
        if ids is None:
            continue
        if ports:
            ported.setdefault(ids, set()).update(ports)
        elif numbers:
            listed.setdefault(ids, set()).update(numbers)
    taken = {n for numbers in numbered.values() for n in numbers}
    ties: list[Sighting] = []
    for ids, listed_as in listed.items():
        at = ported.get(ids, set())
        if len(listed_as) != 1 or len(at) != 1:
            continue
        number, port = next(iter(listed_as)), next(iter(at))
        if number in taken or number.split(":")[0] != port.split("-")[0]:
            continue
        keys: list[Key] = [("usbdev", number), ("usb", port)]
        ties.append(Sighting(keys))
    return ties
