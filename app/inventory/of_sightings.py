"""A NIC named by its device-tree node: the interface's ``device/modalias``, ``device/uevent`` or
``device/of_node/compatible`` (parsers/of_device.py), shown by a command or kept as a file.

The node's compatible list says which driver the kernel binds (sbctune.catalog.of_compatibles:
the first compatible any drivers/net table lists, drivers/of/base.c __of_match_node()) and so
the bus: a device the OF core makes from a node a platform driver binds is a platform device
(drivers/of/platform.c of_platform_device_create()). A uevent's DRIVER= is the bound driver
itself. A modalias of a PCI, USB or SDIO device gives its bus and IDs. The compatible list is
kept as a fact, for the catalog's chip by its own compatible.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sbctune.catalog.of_compatibles import load_of_compatibles
from sbctune.inventory.parsers.of_device import OfDevice, parse_of_device
from sbctune.inventory.raw import Parsed
from sbctune.inventory.sightings import Sighting, iface_key

SOURCE = "of compatible"  # graph.PRECEDENCE: below every listing that shows the bound driver
_FILE = re.compile(r"^/sys/class/net/([^/]+)/device/(?:modalias|uevent|of_node/compatible)$")


def _devices(parsed: Parsed) -> Iterator[tuple[str, OfDevice]]:
    yield from parsed.of_devices.items()
    for path, text in parsed.sysfs.items():  # a bundle's files (raw.parse_all keeps /sys/ ones)
        if match := _FILE.match(path):
            yield match.group(1), parse_of_device(text)[0]


def from_of_devices(parsed: Parsed) -> Iterator[Sighting]:
    table = load_of_compatibles()
    for name, device in _devices(parsed):
        key = iface_key(name)
        if key is None or not (device.compatibles or device.driver or device.ids):
            continue
        sighting = Sighting([key])
        if device.ids and device.bus:  # another bus's modalias: sysfs's own IDs of the device
            said = f"/sys/class/net/{name}/device/modalias: {device.bus} {device.ids}"
            sighting.add("ids", device.ids, "sysfs", said)
            sighting.add("bus", device.bus, "sysfs", said)
        shown = " ".join(device.compatibles)[:200]
        line = f"/sys/class/net/{name}/device: compatible {shown}"
        if device.driver:
            sighting.add("driver", device.driver, "sysfs", f"{line} (DRIVER={device.driver})")
        if device.compatibles:
            sighting.add("of_compatible", tuple(device.compatibles), SOURCE, line)
        found = table.match(device.compatibles)
        if found is not None:
            why = f"{line} ({found.compatible}: {', '.join(found.drivers)}, {found.file})"
            if len(found.drivers) == 1:
                sighting.add("driver", found.drivers[0], SOURCE, why)
            if found.bus == "platform":
                sighting.add("bus", "platform", SOURCE, why)
        elif device.compatibles:
            # an OF node's device no drivers/net table lists: still a platform device
            sighting.add("bus", "platform", SOURCE, line)
        yield sighting
