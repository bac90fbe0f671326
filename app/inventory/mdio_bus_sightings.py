"""An MDIO bus named by its driver, as a sighting: "libphy: fec_enet_mii_bus: probed" (older
kernels' mdiobus_register()) says the fec's MAC is there. The name is the driver's own
(catalog.mdio_bus_names, from the 6.1/6.12 source); the line names no device, so the sighting
is keyed by the driver alone and joins that driver's one device when the log shows it
(lone_device_ties), else it stands for a NIC of that driver on the driver's one bus."""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.mdio_bus_names import mdio_bus_driver
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


_DEVICE_KEYS = ("usb", "pci", "sdio", "platform", "if")


def shown_elsewhere(found: list[Sighting]) -> list[Sighting]:
    """Without the MDIO bus sightings of a driver that other lines show driving a device (the
    TiogaPass BMC's two ftgmac100 MACs beside "libphy: ftgmac100_mdio: probed"): the bus is
    one of theirs (which one is not said), so it stands for no NIC of its own. Only a driver
    the log shows by its bus alone (the i.MX8MN's fec) gets a NIC from it."""
    drivers = {k[1] for s in found if _is_bus(s) for k in s.keys if k[0] == "drv"}
    if not drivers:
        return found
    devices: dict[str, set[Key]] = {}
    for sighting in found:
        if _is_bus(sighting):
            continue
        keys = {k for k in sighting.keys if k[0] in _DEVICE_KEYS}
        for fact in sighting.facts:
            if fact.field == "driver" and str(fact.value) in drivers:
                devices.setdefault(str(fact.value), set()).update(keys)
    crowded = {d for d, keys in devices.items() if keys}
    return [s for s in found if not (_is_bus(s) and {k[1] for k in s.keys} & crowded)]


def _is_bus(sighting: Sighting) -> bool:
    return any(f.field == "mdio_bus" for f in sighting.facts)
