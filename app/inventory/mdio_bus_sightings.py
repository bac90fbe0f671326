"""An MDIO bus named by its driver, as a sighting: "libphy: fec_enet_mii_bus: probed" (older
kernels' mdiobus_register()) says the fec's MAC is there. The name is the driver's own
(catalog.mdio_bus_names, from the 6.1/6.12 source); the line names no device, so the sighting
is keyed by the driver alone and joins that driver's one device when the log shows it
(lone_device_ties), else it stands for a NIC of that driver on the driver's one bus."""

from __future__ import annotations

from operator import attrgetter

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.mdio_bus_names import mdio_bus_driver, usb_numbered_drivers
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting

_SRC = "dmesg"


def on_mdio_bus(event: DmesgEvent) -> Sighting | None:
    name = event.fields.get("mdio_bus_name", "")
    driver = load_kernel_drivers().get(mdio_bus_driver(name) or "")
    if driver is None:
        return None
    why = f"{event.text[:200]} (the MDIO bus {driver.file} names {name!r})"
    sighting = Sighting([("drv", driver.name)])
    sighting.add("mdio_bus", name, _SRC, why, event.line)
    sighting.add("driver", driver.name, _SRC, why, event.line)
    if driver.bus:  # a driver of one bus (fec: platform; lan78xx: usb)
        sighting.add("bus", driver.bus, _SRC, why, event.line)
    return sighting


def on_mdio_usb_bus(event: DmesgEvent) -> Sighting | None:
    """A line "mdio_bus usb-002:004: ...": the MDIO bus of the USB device number 4 on bus 2, the
    device "usb 2-1: new SuperSpeed USB device number 4" enumerates (its "usbdev" key)."""
    busnum, devnum = event.fields.get("busnum", ""), event.fields.get("devnum", "")
    if not (busnum.isascii() and busnum.isdigit() and devnum.isascii() and devnum.isdigit()):
        return None
    sighting = Sighting([("usbdev", f"{int(busnum)}:{int(devnum)}")])
    sighting.add("mdio_usb_bus", event.text[:200], _SRC, event.text[:200], event.line)
    return sighting


def usb_bus_ties(found: list[Sighting], index: FoundIndex | None = None) -> list[Sighting]:
    """The one USB-numbered MDIO bus of a log is the one MDIO bus a driver that numbers it so
    names ("libphy: lan78xx-mdiobus: probed"): a sighting that ties that driver to the USB
    device. With two of either, nothing is tied. (`index`: found's, when made already.)"""
    said = index or FoundIndex(found)
    devices = {k for s in said.saying("mdio_usb_bus") for k in s.keys if k[0] == "usbdev"}
    numbered = usb_numbered_drivers()
    drivers = {
        k[1] for s in said.saying("mdio_bus") for k in s.keys if k[0] == "drv" and k[1] in numbered
    }
    if len(devices) != 1 or len(drivers) != 1:
        return []
    return [Sighting([next(iter(devices)), ("drv", next(iter(drivers)))])]


def _said(sighting: Sighting, field: str) -> bool:
    # C's map and `in`, no generator frame per fact: a long log's counted line is one
    # sighting with a fact per repeat (thousands), and every sighting is asked
    return field in map(_FIELD, sighting.facts)


_FIELD = attrgetter("field")
_DEVICE_KEYS = ("usb", "pci", "sdio", "platform", "if")


def shown_elsewhere(found: list[Sighting], index: FoundIndex | None = None) -> list[Sighting]:
    """Without the MDIO bus sightings of a driver that other lines show driving a device (the
    TiogaPass BMC's two ftgmac100 MACs beside "libphy: ftgmac100_mdio: probed"): the bus is
    one of theirs (which one is not said), so it stands for no NIC of its own. Only a driver
    the log shows by its bus alone (the i.MX8MN's fec) gets a NIC from it. `found` itself when
    none is left out. (`index`: found's, when made already.)"""
    said = index or FoundIndex(found)
    bus_sightings = said.saying("mdio_bus")
    drivers = {k[1] for s in bus_sightings for k in s.keys if k[0] == "drv"}
    if not drivers:
        return found
    buses = {id(s) for s in bus_sightings}
    devices: dict[str, set[Key]] = {}
    for sighting in said.saying("driver"):
        if id(sighting) in buses:
            continue
        keys = {k for k in sighting.keys if k[0] in _DEVICE_KEYS}
        for fact in sighting.facts:
            if fact.field == "driver" and str(fact.value) in drivers:
                devices.setdefault(str(fact.value), set()).update(keys)
    crowded = {d for d, keys in devices.items() if keys}
    out = {id(s) for s in bus_sightings if {k[1] for k in s.keys} & crowded}
    return [s for s in found if id(s) not in out] if out else found


def _is_bus(sighting: Sighting) -> bool:
    return _said(sighting, "mdio_bus")
