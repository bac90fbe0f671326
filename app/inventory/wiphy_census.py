"""A USB or PCI Wi-Fi adapter that plain `iw dev` shows without an interface has no driver.

`iw dev` (iw's interface.c, with no interface named) dumps every wireless interface under a
`phy#N` header per wiphy. A driver that binds an adapter registers a wiphy with an interface:
mac80211 adds the default "wlan%d" station when a driver registers its hardware
(net/mac80211/main.c ieee80211_register_hw() -> ieee80211_if_add(), 6.1 and 6.12), and the
vendors' full-MAC drivers register their own netdev. So when every interface that `iw dev`
lists is another device's, an adapter left with none has no driver bound (the AWUS036ACS
beside a Pi's own wlan0, corpus/wifi_pi4_awus036acs_8821au_134_*).

An interface is another device's when a line placed it on a device (its bus path or driver),
or when its MAC is the board maker's (the Raspberry Pi OUIs of the IEEE registry: the Pi's own
SDIO radio; a USB or PCI adapter carries its own maker's address). One unplaced interface
with any other MAC may be the adapter's: then nothing is concluded.
"""

from __future__ import annotations

import re

from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.nics import board_makers_mac
from sbctune.inventory.parsers.wireless_tools import parse_iw_dev
from sbctune.inventory.raw import Parsed


def _listed_elsewhere(parsed: Parsed, inventory: Inventory) -> list[str] | None:
    """The interfaces plain `iw dev` lists, each shown to be another device's; None when the
    output is not plain `iw dev` (`iw dev wlan0 info` prints no phy# header) or one listed
    interface may be the adapter's."""
    text = parsed.texts.get("iw dev", "")
    if not re.search(r"^phy#\d+\s*$", text[:20000], re.M):
        return None
    result, _warnings = parse_iw_dev(text)
    listed = result.interfaces if result is not None else []
    said = []
    for netif in listed:
        nic = inventory.nic(netif.name)
        placed = nic is not None and bool(nic.bus_path or nic.driver)
        if not placed and not board_makers_mac(netif.mac or (nic.mac if nic else None)):
            return None
        where = (nic.bus_path or nic.driver) if placed and nic is not None else None
        said.append(f"{netif.name} on {where}" if where else f"{netif.name}, a Raspberry Pi MAC")
    return said


def no_wiphy_left(inventory: Inventory, parsed: Parsed) -> None:
    """Marks as driverless each nameless, driverless USB/PCI Wi-Fi adapter when plain `iw dev`
    lists only other devices' interfaces (the module docstring)."""
    adapters = [n for n in inventory.nics if _unbound_adapter(n)]
    if not adapters:
        return
    elsewhere = _listed_elsewhere(parsed, inventory)
    if elsewhere is None:
        return
    listed = ", ".join(elsewhere) or "none"
    why = (
        f"iw dev lists every wireless interface, none of this adapter's ({listed}); a bound "
        "driver registers one (mac80211 adds wlan%d in ieee80211_register_hw())"
    )
    for nic in adapters:
        nic.driver_state = "none"
        nic.evidence.insert(1, why)


def _unbound_adapter(nic: Nic) -> bool:
    return (
        nic.wireless
        and nic.bus in ("usb", "pci")
        and not nic.name
        and not nic.driver
        and nic.driver_state != "none"
    )
