"""What a network daemon's line about an interface (parsers/daemon_lines.py) says, as a
sighting: systemd-networkd's "end0: Found driver: macb" names end0 and its driver (the one
ethtool reports for it); its "State changed: ..." and NetworkManager's "device (end1): state
change: ...", "dhcp4 (end1): ..." name the interface only. A virtual interface (lo, a bridge,
a tunnel) is none (sightings.iface_key). The carrier lines are read with the kernel's link
lines (log_sightings, kind "carrier")."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, iface_key

_SRC = "dmesg"
_NOT_DRIVERS = frozenset({"(null)", "n/a"})  # strna() prints "n/a" when there is none


def on_daemon_iface(event: DmesgEvent) -> Sighting | None:
    key = iface_key(event.iface)
    if key is None:
        return None
    sighting = Sighting([key])
    text, no = event.text, event.line
    sighting.add("seen", True, _SRC, text, no)
    driver = event.driver
    if driver and driver not in _NOT_DRIVERS and driver.replace("-", "_").isidentifier():
        sighting.add("driver", driver, _SRC, text, no)
    return sighting
