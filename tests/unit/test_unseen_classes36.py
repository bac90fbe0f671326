"""Classes that the thirty-sixth unseen set (mesh, ad-hoc and long-range Wi-Fi: batman-adv,
802.11s, Gluon nodes' logread, Wi-Fi HaLow radios; tests/captures/corpus) showed misread. Every
output here is one of those bundles' (named beside it, with its SOURCE.md), or one changed to
show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.virtual_declared import declared_virtual
from tests.corpus_support import corpus_output, findings_of, inventory_of

_ZERO_W = "mesh_pizerow_batman_binnes_6_ifconfig_bat0_wlan0"
_UAP = "gluon_uap_outdoor_plus_1143_logread_bat0_mesh_lan_removed"
_CUDY = "gluon_cudy_wr1300_2794_logread_bat0_br_client_no_nic"
_MESH0 = "mesh_openwrt_routing_530_mesh0_bat0_wlan0_1_br_lan"


# --- a batman-adv mesh interface and netifd's virtual devices are no NICs ---


def test_the_batman_adv_mesh_interface_in_ifconfig_is_no_nic() -> None:
    """A Pi Zero W's `ifconfig`: bat0 (batman-adv's soft interface, named as the kernel's
    Documentation/networking/batman-adv.rst and batctl name it), lo and wlan0. Only wlan0 is a
    NIC, and bat0's 51 dropped transmits (batman-adv drops what it cannot route) are no NIC's
    interface errors."""
    inv = inventory_of({"ifconfig": corpus_output(_ZERO_W)})
    assert [n.name for n in inv.nics] == ["wlan0"]
    assert not findings_of(inv, "interface-errors")


def test_a_gluon_logread_of_virtual_devices_only_lists_no_nic() -> None:
    """A UniFi AP Outdoor+ running Gluon: batman-adv prints by its mesh interface
    ("batman_adv: bat0: ...", net/batman-adv/log.h batadv_info(): pr_info("%s: " fmt,
    soft_iface->name)), and netifd says what kind each device is ("MAC VLAN 'local-node' link is
    up", netifd device.c device_set_link(): dev->type->name). The kernel's ADDRCONF line for
    local-node does not make it a NIC."""
    inv = inventory_of({"dmesg": corpus_output(_UAP)})
    assert inv.nics == []


def test_a_vlan_filter_line_on_the_mesh_interface_is_no_nic() -> None:
    """The Cudy WR1300's Gluon logread: "8021q: adding VLAN 0 to HW filter on device bat0" and
    netifd's "Network device 'bat0' link is up" name only batman-adv's interface, known here by
    its name alone (no batman_adv line in the excerpt)."""
    inv = inventory_of({"dmesg": corpus_output(_CUDY)})
    assert inv.nics == []


def test_the_interface_batman_adv_adds_stays_a_nic() -> None:
    """In "batman_adv: bat0: Adding interface: mesh0" bat0 is the mesh interface, mesh0 the
    (hard) interface it rides on, a NIC that stays listed, as does the bridged wlan0-1."""
    inv = inventory_of({"dmesg": corpus_output(_MESH0)})
    assert sorted(n.name for n in inv.nics) == ["mesh0", "wlan0-1"]


def test_netifd_says_a_plain_device_is_a_network_device() -> None:
    """netifd's simple device type is "Network device" (device.c simple_device_type): such a
    line declares nothing virtual, so wlan0 stays a NIC."""
    line = "Tue Jun 13 00:20:11 2017 daemon.notice netifd: Network device 'wlan0' link is up\n"
    assert declared_virtual(line) == frozenset()
    inv = inventory_of({"ifconfig": corpus_output(_ZERO_W), "dmesg": line})
    assert [n.name for n in inv.nics] == ["wlan0"]
    bridged = line.replace("Network device 'wlan0'", "Bridge 'wlan0'")  # what a bridge says
    assert declared_virtual(bridged) == frozenset({"wlan0"})
    assert inventory_of({"ifconfig": corpus_output(_ZERO_W), "dmesg": bridged}).nics == []


def test_declared_virtual_reads_the_two_formats() -> None:
    text = corpus_output(_UAP)
    assert declared_virtual(text) == frozenset({"bat0", "br-client", "local-node"})


@given(st.text(max_size=400))
def test_declared_virtual_never_crashes(text: str) -> None:
    found = declared_virtual(text + "\nnetifd: " + text + "\nbatman_adv: " + text)
    assert all(isinstance(n, str) and 0 < len(n) < 16 for n in found)


# --- an out-of-tree Wi-Fi driver on SPI that vendor_formats.json reads is a Wi-Fi NIC ---

_PI3B = "halow_pi3b_openmanet_51_logread_then_dmesg_morse_spi_errno_95"
_PI4 = "halow_pi4_wm6108_9_morse_spi_bare_function_lines_cmd53_71"
_ZERO2W = "halow_zero2w_mm6108_5_morse_spi_human_clock_bare_brcmfmac_line"


def test_a_halow_radio_on_spi_is_a_wifi_nic_with_its_spi_errors() -> None:
    """The Pi 3 B's OpenMANET log: "morse_spi spi0.0: spi: set_address_base fn=1 ... (ret:-61)"
    is Morse Micro's spi_log_err() (MORSE_SPI_ERR, which morse_err() prints with dev_err():
    vendor_formats.json). spi0.0 is a Wi-Fi NIC on no bus of contract 2, driven by morse_spi,
    and its failed transfers are a driver complaint; the brcmfmac SDIO NIC stays as it was."""
    inv = inventory_of({"dmesg": corpus_output(_PI3B)})
    (halow,) = [n for n in inv.nics if n.bus_path == "spi0.0"]
    assert (halow.driver, halow.bus, halow.wireless) == ("morse_spi", "unknown", True)
    assert findings_of(inv, "driver-complaint")
    (sdio,) = [n for n in inv.nics if n.bus_path == "mmc1:0001:1"]
    assert (sdio.name, sdio.driver) == ("wlan-03-90", "brcmfmac")


def test_the_bare_lines_without_timestamps_name_the_same_nic() -> None:
    """The Pi 4's four lines: "morse_spi spi0.0: morse_spi_dm_write failed -71" is the dm_write
    failure (MORSE_SPI_ERR "%s failed %d"); the bare "morse_spi_cmd53_write failed" names no
    device and adds nothing."""
    inv = inventory_of({"dmesg": corpus_output(_PI4)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.driver, nic.wireless) == ("spi0.0", "morse_spi", True)
    assert findings_of(inv, "driver-complaint")


def test_a_halow_radio_that_came_up_is_a_nic_without_complaints() -> None:
    """The Zero 2 W's morse_spi loads its firmware and initialises it: a NIC, no complaint."""
    inv = inventory_of({"dmesg": corpus_output(_ZERO2W)})
    (nic,) = [n for n in inv.nics if n.bus_path == "spi0.0"]
    assert (nic.driver, nic.wireless) == ("morse_spi", True)
    assert not findings_of(inv, "driver-complaint") and not findings_of(inv, "no-driver")


def test_an_spi_device_of_a_driver_no_table_names_is_no_nic() -> None:
    """The same lines under another driver's name (a TPM's, an SPI chip that is no NIC): no row
    of vendor_formats.json names it, so spi0.0 is not made a NIC."""
    text = corpus_output(_ZERO2W).replace("morse_spi spi0.0", "tpm_tis_spi spi0.0")
    assert [n for n in inventory_of({"dmesg": text}).nics if n.bus_path == "spi0.0"] == []
