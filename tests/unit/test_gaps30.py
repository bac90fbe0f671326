"""KNOWN_GAPS closed by their class (session 30).

A mouse is no NIC: "wireless" in a USB device's name says it has a radio, and usb.ids names
~130 mice and keyboards "Wireless ..."; its own HID tables name the input kinds
(resources/ids/usb_input_kinds.json, scripts/regen_usb_input_kinds.py). The paste is the corpus
bundle loc64_x86_ubuntuforums_xubuntu_lshw_de_rtl8411_1g_intel_wifi_ungefordert's lsusb
(an ubuntuusers.de thread, its SOURCE.md), where 248a:8366 is printed with no name.
"""

from __future__ import annotations

from sbctune.catalog.usb_input_kinds import names_input_device
from sbctune.inventory.usb_names import named_network
from tests.corpus_support import corpus_output, inventory_of

_XUBUNTU = "loc64_x86_ubuntuforums_xubuntu_lshw_de_rtl8411_1g_intel_wifi_ungefordert"


def test_a_wireless_mouse_named_by_usb_ids_is_no_usb_nic() -> None:
    """The user sees no USB NIC for the mouse usb.ids names 'Wireless Optical Mouse
    ACT-MUSW-002' (lsusb printed its IDs with no name)."""
    lsusb = corpus_output(_XUBUNTU, "001")
    assert "ID 248a:8366  " in lsusb
    inv = inventory_of({"lsusb": lsusb})
    assert [n.ids for n in inv.nics if n.bus == "usb"] == []


def test_input_kinds_come_from_usb_ids_and_network_words_still_win() -> None:
    assert names_input_device("2.4GHz Wireless Keyboard/Mouse Receiver")
    assert not named_network("Wireless Optical Mouse ACT-MUSW-002")
    assert not named_network("USB Wireless 2.4GHz Gamepad")
    # a radio with no input kind, and a network word beside one, stay network devices
    assert named_network("802.11n Wireless LAN Adapter")
    assert named_network("Wireless Network Adapter")
    assert named_network("WLAN adapter with keypad")
