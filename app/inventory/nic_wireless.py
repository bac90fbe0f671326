"""Whether a NIC is a wireless one: any of the signs below says so."""

from __future__ import annotations

import re

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.oot_chips import chip_by_oot_name, out_of_tree_chip
from sbctune.catalog.vendor_drivers import vendor_module
from sbctune.catalog.vendor_formats import vendor_driver
from sbctune.inventory.graph import Device
from sbctune.inventory.ifnames import wireless_from_name
from sbctune.inventory.model import Nic
from sbctune.inventory.net_source_lines import net_source
from sbctune.inventory.nic_kind import sdio_wifi
from sbctune.inventory.usb_names import named_wifi

_WIRELESS_DRIVERS = {
    "brcmfmac", "rtl8xxxu", "mt7601u", "ath9k_htc", "rt2800usb", "iwlwifi", "mt76x2u",
    "rtw88_8822bu", "8188eu", "88x2bu", "ath10k_pci", "mt7921e", "rtw89_8852be", "rtw89_pci",
    "ath11k_pci", "mt7921u", "rtw88_8821cu", "r8188eu", "ath9k", "mwifiex_sdio"}  # fmt: skip


def _kernel_wireless(device: Device) -> bool:
    """A Wi-Fi driver of the kernel drives it, tried to, or lists its IDs."""
    table = load_kernel_drivers()
    named = [table.get(device.value(f)) for f in ("driver", "refused_by")]
    found = device.value("ids")
    listed = table.for_ids("usb", found) + table.for_ids("pci", found)
    listed = listed or table.for_firmware(device.value("firmware_wanted"))
    drivers = [d for d in named if d is not None] or listed
    return bool(drivers) and all(d.wireless for d in drivers)


def _former(device: Device) -> list[str]:
    """Names the kernel gave it before a rename: "mlan0: renamed from wlan0" was registered
    with cfg80211's default "wlan%d", as Wi-Fi drivers' interfaces are."""
    return [str(f.value) for f in device.all("former_name")]


def _vendor_wireless(driver: object) -> bool:
    """An out-of-tree Wi-Fi driver vendor_formats.json reads drives it, or tried to (its probe
    failed: nrc80211's "probe of nrc80211 failed with error -22")."""
    row = vendor_driver(driver)
    module = vendor_module(driver)  # or one whose build names its module (vendor_drivers.json)
    return bool(row and row.wireless) or bool(module and module.wireless)


# Where the kernel keeps its Wi-Fi drivers: the Realtek staging drivers (r8188eu, rtl8192e,
# rtl8723bs, rtl8712) are all Wi-Fi ones.
_WIFI_TREES = ("drivers/net/wireless/", "drivers/staging/")


def _oot_wireless(driver: object) -> bool:
    """An out-of-tree driver named for a chip whose family only the kernel's Wi-Fi drivers
    name (oot_chips: rtl88x2bu -> RTL88x2BU, the family of rtw88's 8822B)."""
    if out_of_tree_chip(driver) is None:
        return False
    found = chip_by_oot_name(str(driver))
    return found is not None and found.source.startswith(_WIFI_TREES)


def is_wireless(nic: Nic, device: Device, bus: str) -> bool:
    klass = str(device.value("pci_class") or "")
    return bool(
        device.value("wireless")
        or any(map(wireless_from_name, (nic.name or "", *_former(device))))  # ifnames.py
        or nic.driver in _WIRELESS_DRIVERS
        or _kernel_wireless(device)
        or _vendor_wireless(nic.driver or device.value("refused_by"))  # vendor_formats.json
        or _oot_wireless(nic.driver)
        or net_source(device) == "wireless"  # a newer driver printing a Wi-Fi driver's words
        or sdio_wifi(device)
        or klass.startswith("0280")
        or re.search(r"wireless|wi-?fi|802\.11|wlan", f"{klass} {nic.chip or ''}", re.I)
        or (bus == "usb" and named_wifi(device))
    )
