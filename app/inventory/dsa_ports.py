"""A DSA switch's user port, told by the device its lines name.

A DSA user port's net_device has the switch for its parent (net/dsa/slave.c dsa_slave_create()
in 6.1, net/dsa/user.c dsa_user_create() in 6.12: SET_NETDEV_DEV(..., port->ds->dev)), so
netdev_printk() names the switch's driver, the switch's device and the port:
"qca8k mdio.0:00 lan4 (uninitialized): PHY [...]". A switch on an MDIO bus has an MDIO
device's name (drivers/net/phy/mdio_device.c mdio_device_create(): PHY_ID_FMT "%s:%02x"); a PHY
never prints an interface in that place. Such a line says the interface is that driver's port,
whatever the driver is called (OpenWrt's "rtl8365mb-mdio" is no 6.1/6.12 driver name); the MDIO
bus's own platform device ("37000000.mdio-mii") is not the port's device.
"""

from __future__ import annotations

import re

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, iface_key

_MDIO_DEVICE = re.compile(r"\w[\w.-]{0,40}:[0-9a-f]{2}")  # "37000000.mdio-mii:10"
_SRC = "dmesg"


def dsa_port(event: DmesgEvent) -> Sighting | None:
    """The port's sighting (its interface and driver), or None for any other line."""
    device, driver = event.device, event.driver
    if not device or not driver or not _MDIO_DEVICE.fullmatch(device):
        return None
    key = iface_key(event.iface)
    if key is None:
        return None
    sighting = Sighting([key])
    sighting.add("driver", driver, _SRC, event.text, event.line)
    sighting.add("switch_port", True, _SRC, event.text, event.line)
    return sighting
