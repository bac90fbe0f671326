"""What an older kernel's line (catalog.old_formats) says, as a sighting: fec's "eth0: Freescale
FEC PHY driver [Generic PHY](mii_bus:phy_addr=1:06, irq=-1)" names eth0's driver and ties eth0
to the PHY 1:06; libphy's "PHY: 1:06 - Link is Up - 1000/Full" is that PHY's (so eth0's) link;
a driver's own warning ("fec_stop : Graceful transmit stop did not complete !") is a complaint
of its one device (driver_line_sightings.lone_wifi_devices)."""

from __future__ import annotations

from sbctune.catalog.old_formats import old_format_of
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, iface_key

_SRC = "dmesg"


def on_old_format(event: DmesgEvent) -> Sighting | None:
    f = event.fields
    row = old_format_of(f.get("format", ""))
    if row is None:
        return None
    text, no = event.text, event.line
    why = f"{text[:200]} (the format of {row.source})"
    keys: list[Key] = []
    if key := iface_key(f.get("iface")):
        keys.append(key)
    if phy_id := f.get("phy_id"):
        keys.append(("old_phy", phy_id))
    if not keys and row.driver:
        keys.append(("drv", row.driver))
    if not keys:
        return None
    sighting = Sighting(keys)
    if row.driver and f.get("iface"):
        sighting.add("driver", row.driver, _SRC, why, no)
    if row.bus and f.get("iface"):  # a vendor tree's driver of no one name still says its bus
        sighting.add("bus", row.bus, _SRC, why, no)
    if f.get("phy"):
        sighting.add("phy", f["phy"], _SRC, why, no)
    if (chip := f.get("chip") or row.chip) and f.get("iface"):  # "eth0: LAN9115 (rev 2) at"
        sighting.add("chip_text", chip, _SRC, why, no)
    if row.level != "info":
        sighting.add("kernel_error", text, _SRC, text, no)  # the line itself, as evidence
    if "Link is" in row.format or "Link now" in row.format:
        up = "speed" in f
        sighting.add("link", up, _SRC, why, no)
        sighting.add("link_event", (no, event.timestamp, up), _SRC, why, no)
        if up:
            sighting.add("link_speed_mbps", int(f["speed"]), _SRC, why, no)
            duplex = f.get("duplex", "").lower().removesuffix("duplex")  # "FullDuplex"
            sighting.add("duplex", duplex, _SRC, why, no)
    return sighting
