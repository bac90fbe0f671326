"""What a bond's ``/proc/net/bonding/BOND`` says about its ports, as ``Sighting``s.

Each "Slave Interface:" block is a port's own link: its speed and duplex are what the port's
driver reports (bond_main.c bond_update_speed_duplex() calls __ethtool_get_link_ksettings() on
the port, 6.1 and 6.12), its "MII Status" the port's link as the bond's monitor last saw it.
The bond itself (the file's name) gets nothing: it is software stacked on its ports.
"""

from __future__ import annotations

from collections.abc import Iterator

from sbctune.inventory.raw import Parsed
from sbctune.inventory.sightings import Sighting, iface_key

_SOURCE = "/proc/net/bonding"


def from_bonds(parsed: Parsed) -> Iterator[Sighting]:
    for bond, status in parsed.bonds.items():
        for port in status.ports:
            key = iface_key(port.name)
            if key is None or port.name == bond:
                continue
            where = f"/proc/net/bonding/{bond}: Slave Interface: {port.name}"
            sighting = Sighting([key])
            if port.speed_mbps:  # 0 is no speed (bond_update_speed_duplex() takes it as unknown)
                sighting.add(
                    "link_speed_mbps",
                    port.speed_mbps,
                    _SOURCE,
                    f"{where}, Speed: {port.speed_mbps} Mbps",
                )
            sighting.add("duplex", port.duplex, _SOURCE, f"{where}, Duplex: {port.duplex}")
            sighting.add("link", port.link, _SOURCE, f"{where}, MII Status: {port.mii_status}")
            yield sighting
