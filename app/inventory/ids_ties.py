"""Ties a driver's device-less lines that give its device's IDs to the one bus device another
output lists with those IDs (bcmdhd's "GET_REVINFO device 0x449d, vendor 0x14e4, ..." beside
lspci's "0004:41:00.0 Network controller: Broadcom ... Device 449d"): the sightings keyed
("wifi", driver) or ("drv", driver) that ``driver_line_sightings`` makes, joined to the bus
device's key. A driver whose lines give two devices' IDs, or IDs two bus devices share, gets no
tie."""

from __future__ import annotations

from sbctune.inventory.sightings import Key, Sighting, says_any

_IDS = frozenset(("ids",))
_BUSES = ("pci", "usb", "sdio")
_DRIVER_KEYS = ("wifi", "drv")


def _ids(sighting: Sighting) -> str | None:
    return next((str(f.value).lower() for f in sighting.facts if f.field == "ids"), None)


def ids_ties(found: list[Sighting]) -> list[Sighting]:
    """Tie sightings: (the bus device's key, the driver's key) for each driver whose
    device-less lines give one device's IDs that exactly one bus device is listed with."""
    on_bus: dict[str, set[Key]] = {}
    said: dict[Key, set[str]] = {}
    for sighting in found:
        if not says_any(sighting, _IDS):
            continue
        ids = _ids(sighting)
        if ids is None:
            continue
        buses = {k for k in sighting.keys if k[0] in _BUSES}
        drivers = [k for k in sighting.keys if k[0] in _DRIVER_KEYS]
        if buses:
            on_bus.setdefault(ids, set()).update(buses)
        elif drivers:
            for key in drivers:
                said.setdefault(key, set()).add(ids)
    ties: list[Sighting] = []
    for key, given in sorted(said.items()):
        if len(given) != 1:
            continue
        (ids,) = given
        devices = on_bus.get(ids, set())
        if len(devices) == 1:
            ties.append(Sighting([next(iter(devices)), key]))
    return ties
