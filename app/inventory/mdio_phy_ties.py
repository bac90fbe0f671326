"""A PHY the log names by its MDIO bus alone ("RTL8211E Gigabit Ethernet stmmac-0:00: attached
PHY driver [...]", drivers/net/phy/phy_device.c phy_attached_print()'s ATTACHED_FMT through
phydev_info(): the PHY driver's name, then its MDIO device "<bus id>:<addr>"), as a sighting of
that bus: a MAC driver's MDIO bus is a child of the MAC (resources/kernel_source/
child_devices.json: stmmac_mdio.c names every stmmac glue driver's bus "stmmac-%x"), so
``child_join`` ties the PHY to the one MAC of the log whose driver registers such a bus; with
two, or none, nothing is tied."""

from __future__ import annotations

from sbctune.inventory.child_join import child_key
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting

_SRC = "dmesg"


def on_phy_on_mdio(event: DmesgEvent) -> Sighting | None:
    bus, phy = event.fields.get("mdio", ""), event.fields.get("phy", "")
    if not phy or phy in ("Generic PHY", "Generic Clause 45 PHY"):
        return None  # phy_device.c's generic drivers name no chip, nor its speed
    key = child_key(bus.rsplit("-", 1)[0], bus)
    if key is None:
        return None  # a bus no known MAC driver registers: whose PHY it is is not said
    sighting = Sighting([key])
    sighting.add("phy", phy, _SRC, event.text, event.line)
    return sighting
