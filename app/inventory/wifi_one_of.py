"""A Wi-Fi driver's device known only from its device-less lines (a cfg80211 callback's
"brcmfmac: brcmf_cfg80211_set_power_mgmt: power save enabled", a complaint), beside several
Wi-Fi interfaces that no line places: it is one of them, and which one is not said. Listed
apart it would count one radio twice, so it is left to the interfaces (build's pairing takes
the one such device and the one such interface together)."""

from __future__ import annotations

from sbctune.inventory.model import Inventory, Nic


def _placed(nic: Nic) -> bool:
    return bool(nic.bus_path or nic.ids)


def drop_unplaceable_wifi(inventory: Inventory) -> None:
    wifi = [n for n in inventory.nics if n.wireless]
    unplaced = [n for n in wifi if n.name and not _placed(n) and not n.driver]
    if len(unplaced) < 2:
        return
    lone = [n for n in wifi if not n.name and not _placed(n) and n.driver]
    for nic in lone:
        inventory.nics.remove(nic)
