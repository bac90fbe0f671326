"""A PHY the log names by its MDIO bus alone ("RTL8211E Gigabit Ethernet stmmac-0:00: attached
PHY driver [...]", drivers/net/phy/phy_device.c phy_attached_print()'s ATTACHED_FMT through
phydev_info(): the PHY driver's name, then its MDIO device "<bus id>:<addr>"), as a sighting of
that bus: a MAC driver's MDIO bus is a child of the MAC (resources/kernel_source/
child_devices.json: stmmac_mdio.c names every stmmac glue driver's bus "stmmac-%x"), so
``child_join`` ties the PHY to the one MAC of the log whose driver registers such a bus; with
two, or none, nothing is tied."""

from __future__ import annotations

from sbctune.catalog.mdio_bus_names import pci_function_of_bus
from sbctune.inventory.child_join import child_key
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting

_SRC = "dmesg"


def on_phy_on_mdio(event: DmesgEvent) -> Sighting | None:
    bus, phy = event.fields.get("mdio", ""), event.fields.get("phy", "")
    if (mac := pci_function_of_bus(bus)) is not None:
        return _on_pci_mac(event, mac, phy)
    if not phy or phy in ("Generic PHY", "Generic Clause 45 PHY"):
        return None  # phy_device.c's generic drivers name no chip, nor its speed
    key = child_key(bus.rsplit("-", 1)[0], bus)
    if key is None:
        return None  # a bus no known MAC driver registers: whose PHY it is is not said
    sighting = Sighting([key])
    sighting.add("phy", phy, _SRC, event.text, event.line)
    return sighting


def _on_pci_mac(event: DmesgEvent, mac: tuple[str, str], phy: str) -> Sighting:
    """A PHY on the MDIO bus its MAC's driver named after the MAC's PCI function ("r8169-0-100":
    catalog.mdio_bus_names.pci_function_of_bus): the line says that driver's device is at that
    address, whatever PHY driver it names (a generic one names no chip)."""
    driver, address = mac
    why = f"{event.text[:200]} (the MDIO bus {driver} names after its PCI function {address})"
    sighting = Sighting([("pci", address)])
    sighting.add("driver", driver, _SRC, why, event.line)
    sighting.add("bus", "pci", _SRC, why, event.line)
    if phy and phy not in ("Generic PHY", "Generic Clause 45 PHY"):
        sighting.add("phy", phy, _SRC, event.text, event.line)
    return sighting
