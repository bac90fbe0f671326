"""What a USB device's own names say it is: a product string or usb.ids name that says
Wi-Fi/WLAN/network (not Bluetooth), a wired LAN adapter's product string, or an interface class
a USB network class driver binds (the ``net_class`` fact from usb-devices). Moved out of
nics.py (a module of one concern each, under 500 lines)."""

from __future__ import annotations

import re

from sbctune.catalog.usb_input_kinds import names_input_device
from sbctune.catalog.usb_net_classes import protocol_words
from sbctune.catalog.wwan_ids import wwan_drivers
from sbctune.inventory.graph import Device

_NET_CLASS = re.compile(r"ethernet|network|wireless|wi-?fi|802\.11|wlan", re.I)
_NET_WORD = re.compile(r"ethernet|network|wi-?fi|802\.11|wlan", re.I)
_LAN = re.compile(r"\bLAN\b|ethernet", re.I)


def named_protocol(text: str) -> str | None:
    """The class driver whose network model a product string names as a word ("MBIM + 3
    CDC-ACM": cdc_mbim; catalog/usb_net_classes.protocol_words, from the drivers' own
    descriptions), or None."""
    words = set(re.findall(r"[A-Za-z]{3,5}", text[:200]))
    return next((d for w, d in protocol_words().items() if w in words), None)


def named_network(text: str) -> bool:
    """A product string or usb.ids name that says Wi-Fi/WLAN/network ("802.11ac WLAN
    Adapter"), but not a Bluetooth radio ("Bluetooth wireless interface") nor an input device
    with a radio ("Wireless Optical Mouse": a kind usb.ids' HID tables name)."""
    if not _NET_CLASS.search(text) or "bluetooth" in text.lower():
        return False
    # "wireless" alone says a radio; a network word besides it still says a NIC
    return _NET_WORD.search(text) is not None or not names_input_device(text)


def named_wifi(device: Device) -> bool:
    """A USB device whose own product string says Wi-Fi ("802.11n NIC", "802.11ac WLAN
    Adapter"), not Bluetooth; "Wireless Receiver" (a mouse's) or "Wireless Controller" (a
    gamepad's) say nothing of Wi-Fi."""
    text = " ".join(str(f.value) for f in device.all("usb_product"))
    said = re.search(r"802\.11|\bWLAN\b|wi-?fi", text, re.I)
    return bool(said) and "bluetooth" not in text.lower()


def named_usb_nic(device: Device) -> bool:
    """The USB core's ``Product:`` line names a NIC: Wi-Fi as above, or a wired LAN adapter
    ("USB 10/100/1G/2.5G LAN", "USB Ethernet"); or an interface's class is one a USB network
    class driver binds (a phone's RNDIS ``ef/04/01``: catalog/usb_net_classes); or its IDs are
    in the ID tables of the kernel's mobile-network modem drivers (option, qcserial, sierra,
    qmi_wwan, sierra_net: kernel_source/wwan_usb_ids.json), so a modem that enumerated with no
    driver line after it (a SIMCom ``1e0e:9011`` on a PocketBeagle) is still a network device."""
    text = " ".join(str(f.value) for f in device.all("usb_product"))
    if named_wifi(device) or device.has("net_class") or _LAN.search(text) is not None:
        return True
    if named_protocol(text) is not None:  # "MBIM + 3 CDC-ACM": a modem's MBIM function
        return True
    return bool(wwan_drivers(str(device.value("ids") or "")))
