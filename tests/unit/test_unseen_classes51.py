"""Classes that the fifty-first unseen set (the SBC as a Wi-Fi access point or router: hostapd
on Pis, OpenWrt on a Pi 4, USB Wi-Fi sticks as APs; tests/captures/corpus/ap51_*) showed
misread. Every output here is one of those bundles' (named beside it, with its SOURCE.md), or
its lines rearranged to guard a rule's edge; the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.lsusb import parse_lsusb
from sbctune.inventory.wiphy_siblings import second_interfaces
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_OMR = "ap51_pi3bplus_omr_677_rtl8xxxu_usb_1_1_1_2_iw_add_ap_not_supported_logread"
_ODROID = "ap51_odroid_h3_rtw88_241_rtw_8812au_error_beacon_valid_hostapd_journal"
_SWITCH = "ap51_morrownr_8812au_27_rtw_8812au_switch_usb3_reenumerates_2_2_wlx"
_RASPAP = "ap51_pi3bplus_raspap_319_iw_info_uap0_ap_wlan0_managed_one_wiphy"
_FORM = "ap51_pi4_usbwifi_464_archer_t2u_plus_rtl8821au_lsusb_one_line_iw_dev_wlx"


# --- a function's name read as another driver's -------------------------------------------------


def test_a_function_the_source_places_in_rtl8xxxu_names_rtl8xxxu_not_its_prefix() -> None:
    """ "usb 1-1.1.2: rtl8192cu_parse_efuse: dumping efuse" is printed by rtl8xxxu's
    rtl8xxxu_8192c.c (6.1) / 8192c.c (6.12) (func_chips.json), not by rtlwifi's rtl8192cu that
    the function's name opens with: the Pi 3B+'s stick is on rtl8xxxu, as its
    "rtl8xxxu 1-1.1.2:1.0" line says."""
    inv = inspect_bundle(CORPUS / _OMR)
    (stick,) = [n for n in inv.nics if n.bus_path == "1-1.1.2"]
    assert stick.driver == "rtl8xxxu"
    assert stick.wireless


def test_the_efuse_line_alone_still_names_rtl8xxxu() -> None:
    """Without the bound driver's own line, the function alone names its driver by the file
    the kernel's source prints it from."""
    text = corpus_output(_OMR, "000-dmesg")
    efuse = [line for line in text.splitlines() if "usb 1-1.1.2:" in line]
    inv = inventory_of({"dmesg": "\n".join(efuse) + "\n"})
    (stick,) = [n for n in inv.nics if n.bus_path == "1-1.1.2"]
    assert stick.driver == "rtl8xxxu"


# --- a driver newer than the tables, told by the words it prints --------------------------------


def test_rtw88_words_make_a_nic_of_a_driver_the_tables_do_not_know() -> None:
    """rtw_8812au came in 6.14, after the 6.1/6.12 tables; its "error beacon valid" and
    "failed to download drv rsvd page" are rtw88's own (rtw88/fw.c, messages.tsv): the
    odroid-h3's USB RTL8812AU at 1-2 is a Wi-Fi NIC on rtw_8812au."""
    inv = inspect_bundle(CORPUS / _ODROID)
    (nic,) = inv.nics
    assert (nic.bus, nic.bus_path, nic.driver) == ("usb", "1-2", "rtw_8812au")
    assert nic.wireless


def test_an_unknown_driver_with_words_no_network_source_prints_is_no_nic() -> None:
    """The same device lines with words no drivers/net/ file prints make no NIC: the rule
    reads the message table, not the driver's name (a name no chip table knows: a driver named
    for a chip, rtw_8812au, is that chip's NIC by its name alone, corpus52's oot_chips rule)."""
    lines = [
        "Okt 30 03:06:23 odroid-h3 kernel: rtw_foo 1-2:1.0: some words of my own here",
        "Okt 30 03:06:23 odroid-h3 kernel: rtw_foo 1-2:1.0: more of my own words again",
    ]
    inv = inventory_of({"journalctl": "\n".join(lines) + "\n"})
    assert inv.nics == []


# --- a USB 3 mode switch with no disconnect line -----------------------------------------------


def test_rtw88_switching_to_usb3_is_one_adapter_at_its_new_port() -> None:
    """rtw88's rtw_usb_probe() prints "switching to USB 3 mode" and returns without
    registering the hardware; the chip comes back at the USB 3 port (2-2) with the same IDs:
    one adapter, at 2-2, named wlx00c0caaae8ba, though `dmesg | grep 8812` kept no
    "USB disconnect"."""
    inv = inspect_bundle(CORPUS / _SWITCH)
    (nic,) = inv.nics
    assert (nic.name, nic.bus_path, nic.ids) == ("wlx00c0caaae8ba", "2-2", "0bda:8812")


def test_without_the_switch_line_two_ports_stay_two_devices() -> None:
    """The join needs the driver's own switch line: the same two enumerations without it
    (two sticks of one model) stay two."""
    text = corpus_output(_SWITCH)
    kept = [line for line in text.splitlines() if "switching to USB 3 mode" not in line]
    inv = inventory_of({"dmesg": "\n".join(kept) + "\n"})
    assert sorted(n.bus_path or "" for n in inv.nics) == ["1-1.2", "2-2"]


# --- a radio's second interface -----------------------------------------------------------------


def test_an_ap_added_to_the_radio_is_no_second_nic() -> None:
    """RaspAP's uap0 (type AP, wdev 0x5) and wlan0 (managed, wdev 0x1) are both on wiphy 0:
    cfg80211 numbers a radio's interfaces as they are added (core.c cfg80211_register_wdev()), so
    uap0 was added to the radio wlan0 stands for. The inventory shows one Wi-Fi NIC."""
    inv = inspect_bundle(CORPUS / _RASPAP)
    assert [n.name for n in inv.nics] == ["wlan0"]
    assert inv.nics[0].wireless


def test_second_interfaces_needs_one_wiphy_and_wdev_numbers() -> None:
    """Two radios (two wiphys) keep both names; output without wdev lines decides nothing;
    `iw dev`'s phy# header places interfaces as `wiphy N` does."""
    uap0 = corpus_output(_RASPAP, "000-")
    wlan0 = corpus_output(_RASPAP, "001-")
    assert second_interfaces(uap0 + wlan0) == {"uap0"}
    assert second_interfaces(uap0 + wlan0.replace("wiphy 0", "wiphy 1")) == set()
    no_wdev = "\n".join(line for line in (uap0 + wlan0).splitlines() if "wdev" not in line)
    assert second_interfaces(no_wdev) == set()
    listing = "phy#0\n\tInterface uap0\n\t\twdev 0x5\n\tInterface wlan0\n\t\twdev 0x1\n"
    assert second_interfaces(listing) == {"uap0"}


# --- lsusb lines joined into one ----------------------------------------------------------------


def test_lsusb_lines_joined_by_a_form_are_each_a_device() -> None:
    """The issue form joined lsusb's lines into one; each "Bus NNN Device NNN: ID" (usbutils
    lsusb.c, one line per device) starts a device again, and a name keeps its own words."""
    text = corpus_output(_FORM, "001-lsusb")
    assert text.count("\n") == 1
    parsed, warnings = parse_lsusb(text)
    assert warnings == []
    found = {(d.vendor_id, d.product_id): d.description for d in parsed.devices}
    assert len(parsed.devices) == 8
    assert found[("2357", "0120")] == "TP-Link Archer T2U PLUS [RTL8821AU]"
    assert found[("04d9", "0006")] == (
        "Holtek Semiconductor, Inc. Wired Keyboard (78/79 key) [RPI Wired Keyboard 5]"
    )


def test_a_joined_lsusb_shows_the_usb_nic_inside_it() -> None:
    """What the user gets: a USB NIC the tables know, in the middle of a joined line, is a
    NIC with its chip (the form's line with the Archer's place taken by a Realtek RTL8153,
    whose IDs r8152 lists)."""
    text = corpus_output(_FORM, "001-lsusb").replace(
        "ID 2357:0120 TP-Link Archer T2U PLUS [RTL8821AU]",
        "ID 0bda:8153 Realtek Semiconductor Corp. RTL8153 Gigabit Ethernet Adapter",
    )
    inv = inventory_of({"lsusb": text})
    assert [n.ids for n in inv.nics] == ["0bda:8153"]
    assert "RTL8153" in (inv.nics[0].chip or "")
