"""KNOWN_GAPS closed by their class (session 30).

A mouse is no NIC: "wireless" in a USB device's name says it has a radio, and usb.ids names
~130 mice and keyboards "Wireless ..."; its own HID tables name the input kinds
(resources/ids/usb_input_kinds.json, scripts/regen_usb_input_kinds.py). The paste is the corpus
bundle loc64_x86_ubuntuforums_xubuntu_lshw_de_rtl8411_1g_intel_wifi_ungefordert's lsusb
(an ubuntuusers.de thread, its SOURCE.md), where 248a:8366 is printed with no name.
"""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.usb_input_kinds import names_input_device
from sbctune.catalog.vendor_drivers import drvinfo_module
from sbctune.inventory.parsers.lspci import parse_lspci
from sbctune.inventory.report import render
from sbctune.inventory.usb_names import named_network
from tests.corpus_support import CORPUS, corpus_output, corpus_output_named, inventory_of

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


_K52DR = "loc64_asus_k52dr_ubuntuforums_prompts_lspci_lsusb_ifconfig_es_jmc250_bcm43142"


def test_plain_lspci_and_ifconfig_join_the_one_device_to_the_one_interface_of_its_kind() -> None:
    """Plain `lspci` shows addresses and names, ifconfig/iwconfig names and MACs: nothing is
    shared, yet the one Ethernet controller is the one wired interface and the one Wi-Fi device
    the one wireless interface (an Asus K52Dr's paste, Spanish ifconfig)."""
    inv = inspect_bundle(CORPUS / _K52DR)
    got = sorted((n.name or "", n.bus, n.bus_path, n.wireless) for n in inv.nics)
    assert got == [
        ("eth0", "pci", "0000:05:00.5", False),
        ("wlan0", "pci", "0000:04:00.0", True),
    ]
    chips = {n.name: n.chip or "" for n in inv.nics}
    assert "JMC250" in chips["eth0"] and "BCM43142" in chips["wlan0"]
    # plain lspci shows no driver line: the report says the driver is not known, never that
    # none is bound (the device's "not shown" stays with the interface it is paired with)
    drivers = [line.split()[-1] for line in render(inv).splitlines() if "driver:" in line]
    assert drivers == ["unknown", "unknown"]


def test_an_interface_with_no_device_of_its_kind_stays_unplaced() -> None:
    """The same paste's lspci cut to its Wi-Fi device: no Ethernet controller is shown, so eth0
    is given no address (the Wi-Fi device is not an Ethernet interface's)."""
    text = corpus_output(_K52DR)
    lspci = text.split("# lspci\n", 1)[1].split("root@", 1)[0]
    ifconfig = text.split("# ifconfig\n", 1)[1].split("root@", 1)[0]
    iwconfig = text.split("# iwconfig", 1)[1].split("\n", 1)[1]
    kept = "\n".join(line for line in lspci.splitlines() if "Ethernet" not in line) + "\n"
    inv = inventory_of({"lspci": kept, "ifconfig": ifconfig, "iwconfig": iwconfig})
    places = {n.name: n.bus_path for n in inv.nics}
    assert places == {"eth0": None, "wlan0": "0000:04:00.0"}


_IMAC = "loc64_imac_ubuntuforums_glued_commands_lshw_fr_bcm57766_tg3_bcm4331_wl"


def test_an_lspci_line_glued_to_its_echoed_command_is_read_by_lspci_shape() -> None:
    """'lspci -nn | grep -i net03:00.0 Ethernet controller [0200]: ... [14e4:1686]': the post
    glued the command to lspci's first line; the BCM57766's IDs are read (an iMac's paste)."""
    text = corpus_output(_IMAC, "000")
    assert text.startswith("lspci -nn | grep -i net03:00.0 Ethernet controller [0200]")
    result, _report = parse_lspci(text)
    first, _wifi = result.devices
    assert (first.slot, first.class_id, first.ids) == ("03:00.0", "0200", "14e4:1686")
    inv = inspect_bundle(CORPUS / _IMAC)
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert (eth0.ids, eth0.bus_path, eth0.driver) == ("14e4:1686", "0000:03:00.0", "tg3")


_DV6 = "loc64_hp_dv6_ubuntuforums_lshw_fr_bcm4313_wl_eth1_ifconfig_fr_not_associated"


def test_broadcom_sta_numbered_drvinfo_name_is_its_module() -> None:
    """lshw prints what ETHTOOL_GDRVINFO answers, and Broadcom's wl answers 'wl%d' with its
    unit (broadcom-sta wl_linux.c wl_get_driver_info(), vendor_drivers.json): the user sees the
    driver wl, not an unknown 'wl0' (an HP dv6's French lshw)."""
    assert "driver=wl0" in corpus_output_named(_DV6, "lshw")
    inv = inspect_bundle(CORPUS / _DV6)
    (eth1,) = [n for n in inv.nics if n.name == "eth1"]
    assert (eth1.driver, eth1.wireless) == ("wl", True)
    assert (drvinfo_module("wl0"), drvinfo_module("wl"), drvinfo_module("wlan0")) == (
        "wl",
        None,
        None,
    )


_AX82U = "dsl_ax82u_merlin_137_syslog_ansi_caret_escapes_broadcom_wl_pci"


def test_a_pci_device_the_wl_module_drives_is_a_wifi_nic() -> None:
    """'wl 0000:01:00.0: enabling device (0140 -> 0142)': the PCI core's line on the device wl
    probes (an ASUS DSL-AX82U's syslog); wl is Broadcom's out-of-tree Wi-Fi driver by its
    public build (vendor_drivers.json), so the user sees a PCIe Wi-Fi NIC driven by wl."""
    inv = inspect_bundle(CORPUS / _AX82U)
    got = [(n.bus, n.bus_path, n.driver, n.wireless) for n in inv.nics]
    assert got == [("pci", "0000:01:00.0", "wl", True)]
