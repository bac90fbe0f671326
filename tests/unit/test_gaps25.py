"""Issue 24, session 25 (gaps25): KNOWN_GAPS closed by their class.

1. A USB device's product string that names a modem class driver's protocol is a modem. The
   USB core's "Product:" line is the device's own word for what it offers; "MBIM" is the
   network model of cdc_mbim (catalog/usb_net_classes.protocol_words, from the class drivers'
   MODULE_DESCRIPTIONs), a driver for mobile-network modems (catalog/wwan_ids.is_wwan_driver).
   The string now reaches the advice layer (Nic.usb_product), so a modem that enumerated with
   no driver still gets the cellular-modem finding. Real paste: an OpenIPC camera's five
   kernel lines of a Fibocom L850 (corpus wwan34_openipc_1829_*).
2. A driver that prints the device number of the PCI ID entry its probe matched names the
   device's IDs. Candela's ath10k-ct (an out-of-tree build of ath10k_pci, same driver name)
   begins each probe with printk(KERN_INFO "ath10k 5.10 driver, optimized for CT firmware,
   probing pci device: 0x%x.", pci_dev->device), pci_dev the const struct pci_device_id *
   (greearb/ath10k-ct ath10k-5.10/pci.c and ath10k-4.19/pci.c __ath10k_pci_probe()). The line
   names no device, so it is a row of old_formats.json (a vendor tree's line, with its field
   "pci_device"), keyed by the driver; the IDs are the one entry of ath10k_pci's alias table
   (resources/ids/drivers.json) with that device number, 168c:003e, and the line joins the
   driver's one device (lone_device_ties). Real paste: a CM4 behind a PLX switch whose
   QCA6174 fails to allocate its copy engine rings (corpus cm4_pcie_devices_75_*).
3. A USB Wi-Fi adapter that plain `iw dev` shows without an interface has no driver. `iw dev`
   lists every wireless interface under its wiphy's phy#N; a driver that binds an adapter
   registers one (mac80211 adds "wlan%d" in ieee80211_register_hw()). An interface whose MAC
   is a Raspberry Pi OUI is the board's own radio, never a plugged-in adapter's, so it is no
   longer joined to the adapter as "the only interface left"; when every listed interface is
   another device's, the adapter gets no-driver (inventory/wiphy_census.py). Real paste: a
   Pi 4's `lsusb` and `iw dev` beside an Alfa AWUS036ACS (corpus wifi_pi4_awus036acs_8821au_*).
4. A device on a SuperSpeed bus of plain `lsusb` runs at 5000 Mbit/s or more. xHCI gives its
   USB 3 ports a root hub of their own (1d6b:0003; the 2.0 ports' is 1d6b:0002), so a device
   on that bus enumerated at SuperSpeed; a USB 3.1 Gen 2 host's bus has the same root hub ID,
   so the speed is a floor (Nic.usb_speed_at_least, shown "5000 Mbit/s or more"), and any
   output that says the speed itself (lsusb -t, dmesg) wins. Real pastes: an OpenMPTCProuter
   box's lsusb with a Quectel RM520N-GL (corpus wwan34_omr_4030_*); a Proxmox mini PC's lsusb
   and lsusb -t with an RTL8157 at 10000M on such a bus (corpus usbmg42_un100l_*).
5. A modem's serial port removed in the teardown of a USB disconnect is that device's.
   usb_disconnect() prints "USB disconnect" and then unbinds the device's interfaces in the
   same call; the USB serial core prints each port's removal on the port, under its
   usb-serial driver's name ("option1 ttyUSB0: GSM modem (1-port) converter now disconnected
   from ttyUSB0", drivers/usb/serial/bus.c usb_serial_device_remove()). Within the teardown's
   second, with no other disconnect between, the port was the disconnected device's; option1
   is option's port name (struct usb_serial_driver .driver.name, now in wwan_usb_ids.json
   "serial_drivers" by scripts/regen_wwan_ids.py), a modem driver: cellular-modem. Real paste:
   a D-Link DWR-512's logread (corpus dwr512_lede_pr641_*).
6. An out-of-tree driver's line that prints its chipset number names the chip. Newracom's
   nrc80211 prints the C-SPI system register on probe, dev_info(&spi->dev, "SPI probing.
   chip_id:%04x modem_id:%08x status:%d", ...) (craigpeacock/nrc7292_sw_pkg@091fa548
   package/src/nrc/nrc-hif-cspi.c spi_probe()), and its own source calls that number the
   chipset ("Unknown Newracom IEEE80211 chipset %04x", nrc-init.c nrc_nw_set_model_conf()):
   a vendor_formats.json row with a chip template ("NRC{chip_id}"); the row makes nrc80211 a
   Wi-Fi driver, so spi0.0 is its NIC, an NRC7292. Real paste: a Pi 5's `dmesg | grep spi`
   (corpus halow_pi5_nrc7292_102_*).
7. A device the driver core names as its driver, with no bus form, is a platform device with
   no id: platform_device_add() names such a device "%s" alone (drivers/base/platform.c, 6.1
   and 6.12), and platform_match() binds it by that name. "nrc80211: probe of nrc80211 failed
   with error -22" is the nrc80211 driver failing on its own device; with the nrc80211 row of
   part 6 that device is a Wi-Fi NIC with no driver bound (not the board's own: a platform
   device named as an out-of-tree driver is the module's). Real pastes: a Pi 4's and a Jetson
   Nano's dmesg (corpus halow_pi4_nrc7292_76_*, halow_jetson_nano_nrc7292_13_*).
Real outputs come from the captures named beside them (each bundle's SOURCE.md).
"""

from __future__ import annotations

from sbctune.catalog.ids import load_ids
from sbctune.catalog.vendor_formats import vendor_line
from sbctune.catalog.wwan_ids import serial_modem_driver
from sbctune.export.describe import bus_text
from sbctune.inventory.model import Inventory
from sbctune.inventory.report import render
from tests.corpus_support import (
    corpus_output,
    dmesg_events,
    dmesg_inventory,
    findings_of,
    inventory_of,
)

# --- 1. a product string naming a modem protocol ------------------------------------------

_L850 = "wwan34_openipc_1829_rancam_l850_bare_usb_lines_mbim_3_acm_no_netdev"


def test_a_usb_device_whose_product_names_mbim_is_a_cellular_modem() -> None:
    inv = inventory_of({"dmesg": corpus_output(_L850)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.usb_product) == ("1-1", "2cb7:0007", "MBIM + 3 CDC-ACM")
    (said,) = findings_of(inv, "cellular-modem")
    assert "MBIM + 3 CDC-ACM" in said and "cdc_mbim" in said


def test_a_product_naming_a_wired_class_protocol_is_no_modem() -> None:
    """NCM is cdc_ncm's model, a driver of Ethernet adapters as much as of modems: the same
    lines with "NCM" in the product make a USB NIC but no cellular-modem finding."""
    text = corpus_output(_L850).replace("Product: MBIM + 3 CDC-ACM", "Product: NCM + 3 CDC-ACM")
    inv = dmesg_inventory(*text.splitlines())
    assert [n.bus_path for n in inv.nics] == ["1-1"]
    assert findings_of(inv, "cellular-modem") == []


# --- 2. the matched PCI ID entry's device number, printed by the probe ----------------------

_CM4 = "cm4_pcie_devices_75_ath10k_ct_qca6174_enomem_behind_plx"
_PROBING = "ath10k 5.10 driver, optimized for CT firmware, probing pci device: 0x3e."


def test_the_device_number_the_probe_prints_names_the_chip_of_the_drivers_one_device() -> None:
    inv = inventory_of({"dmesg": corpus_output(_CM4)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.wireless) == ("0000:05:00.0", "168c:003e", True)
    assert nic.chip is not None and "QCA6174" in nic.chip
    assert "probe-failed" in {f.id for f in inv.findings}


def test_with_two_devices_of_the_driver_the_number_names_neither() -> None:
    text = corpus_output(_CM4)
    second = "[   11.000000] ath10k_pci 0000:06:00.0: failed to alloc CE src ring 0: -12"
    assert _PROBING in text
    inv = dmesg_inventory(*text.splitlines(), second)
    assert [(n.bus_path, n.ids) for n in inv.nics] == [
        ("0000:05:00.0", None),
        ("0000:06:00.0", None),
    ]


def test_the_probing_line_alone_makes_no_nic() -> None:
    """No device of the driver is shown: the number is not joined to anything."""
    assert dmesg_inventory(f"[   10.789027] {_PROBING}").nics == []


def test_only_a_number_one_entry_of_the_drivers_table_has_names_ids() -> None:
    ids = load_ids()
    assert ids.driver_entry("pci", "ath10k_pci", "3e") == "168c:003e"
    assert ids.driver_entry("pci", "ath10k_pci", "11ac") == "0777:11ac"  # Ubiquiti's QCA988X
    assert ids.driver_entry("pci", "ath10k_pci", "8168") is None  # r8169's, not ath10k_pci's
    assert ids.driver_entry("pci", "ath10k_pci", "zz") is None


# --- 3. an adapter plain `iw dev` lists no interface of ----------------------------------

_ALFA = "wifi_pi4_awus036acs_8821au_134_lsusb_iw_dev_no_second_phy"
# another wiphy's interface with a plugged-in adapter's MAC (Alfa's OUI): it may be the Alfa's
_SECOND_PHY = """phy#1
        Interface wlan1
                ifindex 4
                wdev 0x100000001
                addr 00:c0:ca:12:34:56
                type managed
"""


def _alfa(iw_dev: str | None = None) -> Inventory:
    iw = corpus_output(_ALFA, "001-iw_dev") if iw_dev is None else iw_dev
    return inventory_of({"lsusb": corpus_output(_ALFA, "000-lsusb"), "iw dev": iw})


def test_an_adapter_iw_dev_lists_no_interface_of_has_no_driver() -> None:
    inv = _alfa()
    (alfa,) = [n for n in inv.nics if n.ids == "0bda:0811"]
    assert (alfa.name, alfa.driver, alfa.driver_state) == (None, None, "none")
    (pi,) = [n for n in inv.nics if n.name == "wlan0"]
    assert (pi.wireless, pi.builtin, pi.ids) == (True, True, None)
    (said,) = findings_of(inv, "no-driver")
    assert "8821AU" in said
    (finding,) = [f for f in inv.findings if f.id == "no-driver"]
    assert any("Raspberry Pi MAC" in e and "ieee80211_register_hw" in e for e in finding.evidence)


def test_another_wiphys_interface_may_be_the_adapters() -> None:
    """A second phy whose wlan1 has another maker's MAC: wlan1 is the adapter's interface
    (the only one left for it), so no driver is missing."""
    inv = _alfa(corpus_output(_ALFA, "001-iw_dev") + _SECOND_PHY)
    assert findings_of(inv, "no-driver") == []
    (alfa,) = [n for n in inv.nics if n.ids == "0bda:0811"]
    assert alfa.name == "wlan1"


def test_one_interfaces_info_is_no_census() -> None:
    """`iw dev wlan0 info` prints the one interface, no phy# header: it cannot say that no
    other interface exists."""
    info = corpus_output(_ALFA, "001-iw_dev").replace("phy#0\n", "")
    inv = _alfa(info)
    assert findings_of(inv, "no-driver") == []


# --- 4. a device on a SuperSpeed bus of plain lsusb ----------------------------------------

_RM520N = "wwan34_omr_4030_rm520n_gl_lsusb_superspeed_bus_via_hub_lsmod_grep"
_RTL8157 = "usbmg42_un100l_proxmox_r8152linux_47_rtl8157_cdc_ncm_10000m"


def test_a_device_on_a_superspeed_bus_runs_at_5000_or_more() -> None:
    inv = inventory_of({"lsusb": corpus_output(_RM520N, "000-lsusb")})
    (nic,) = inv.nics
    assert (nic.ids, nic.usb_speed_mbps, nic.usb_speed_at_least) == ("2c7c:0801", 5000, True)
    assert "USB 3 (5000 Mbit/s or more)" in render(inv)
    assert bus_text(nic.__dict__) == "USB 3 (5000 Mbit/s or more)"


def test_the_speed_a_tree_shows_wins_over_the_buss_floor() -> None:
    """The RTL8157's bus is a 1d6b:0003 one in plain lsusb and 10000M in lsusb -t (a USB 3.1
    Gen 2 host): 10000, exact. Plain lsusb alone says 5000 or more."""
    both = inventory_of(
        {"lsusb": corpus_output(_RTL8157, "000-lsusb"), "lsusb -t": corpus_output(_RTL8157, "001")}
    )
    (nic,) = [n for n in both.nics if n.ids == "0bda:8157"]
    assert (nic.usb_speed_mbps, nic.usb_speed_at_least) == (10000, False)
    alone = inventory_of({"lsusb": corpus_output(_RTL8157, "000-lsusb")})
    (nic,) = [n for n in alone.nics if n.ids == "0bda:8157"]
    assert (nic.usb_speed_mbps, nic.usb_speed_at_least) == (5000, True)


def test_a_usb2_buss_devices_keep_480() -> None:
    inv = inventory_of({"lsusb": corpus_output(_ALFA, "000-lsusb")})
    (nic,) = [n for n in inv.nics if n.ids == "0bda:0811"]
    assert (nic.usb_speed_mbps, nic.usb_speed_at_least) == (480, False)


# --- 5. a modem's serial port removed in a USB disconnect's teardown ------------------------

_DWR512 = "dwr512_lede_pr641_logread_netifd_at_commands_cdc_ether_usb0_unregister_option1"
_PORT = "option1 ttyUSB0: GSM modem (1-port) converter now disconnected from ttyUSB0"


def test_a_modem_port_removed_with_the_device_makes_it_a_cellular_modem() -> None:
    inv = inventory_of({"logread": corpus_output(_DWR512)})
    (nic,) = inv.nics
    assert (nic.name, nic.bus_path, nic.driver) == ("usb0", "1-1", "cdc_ether")
    (said,) = findings_of(inv, "cellular-modem")
    assert "option1 ttyUSB0" in said


def test_the_port_line_reads_the_same_without_its_wrapper() -> None:
    assert dmesg_events(_PORT) == [
        (
            "usb_serial_gone",
            {"serial_driver": "option1", "port": "ttyUSB0", "description": "GSM modem (1-port)"},
        )
    ]
    assert serial_modem_driver("option1") == "option"
    assert serial_modem_driver("ftdi_sio") is None  # a serial adapter's driver, no modem's


def test_a_port_removed_long_after_the_disconnect_is_not_the_devices() -> None:
    text = corpus_output(_DWR512).replace("[  192.122206] option1", "[  199.122206] option1")
    assert findings_of(inventory_of({"logread": text}), "cellular-modem") == []


def test_another_drivers_port_says_no_modem() -> None:
    text = corpus_output(_DWR512).replace(
        "option1 ttyUSB0: GSM modem (1-port)", "ftdi_sio ttyUSB0: FTDI USB Serial Device"
    )
    assert findings_of(inventory_of({"logread": text}), "cellular-modem") == []


# --- 6. an out-of-tree driver's chipset number -------------------------------------------

_HALOW = "halow_pi5_nrc7292_102_cspi_chipid_grep_spi"


def test_the_chipset_number_an_out_of_tree_driver_prints_names_its_chip() -> None:
    inv = inventory_of({"dmesg": corpus_output(_HALOW)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.driver, nic.chip, nic.wireless) == (
        "spi0.0",
        "nrc80211",
        "NRC7292",
        True,
    )


def test_the_template_reads_only_its_own_drivers_line() -> None:
    line = "[   90.243143] nrc80211 spi0.0: SPI probing. chip_id:7292 modem_id:00000001 status:1"
    assert line in corpus_output(_HALOW)
    other = line.replace("nrc80211 spi0.0", "spidev spi0.0")
    assert [n.chip for n in dmesg_inventory(other).nics] == []
    row, fields = vendor_line("nrc80211", line) or (None, {})
    assert row is not None and row.chip_of(fields) == "NRC7292"
    assert row.chip_of({}) is None


# --- 7. a platform device named as its driver ----------------------------------------------

_HALOW_PI4 = "halow_pi4_nrc7292_76_spi_chipselect_in_use_probe_22"
_FAILED = "[  192.750968] nrc80211: probe of nrc80211 failed with error -22"


def test_a_device_named_as_its_driver_is_its_platform_device() -> None:
    inv = inventory_of({"dmesg": corpus_output(_HALOW_PI4)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.bus, nic.driver, nic.wireless) == (
        "nrc80211",
        "platform",
        None,
        True,
    )
    assert nic.builtin is False  # the module's device, not the SoC's
    (said,) = findings_of(inv, "probe-failed")
    assert "-22" in said or "EINVAL" in said


def test_a_device_named_otherwise_without_a_bus_form_is_none() -> None:
    assert _FAILED in corpus_output(_HALOW_PI4)
    other = _FAILED.replace("probe of nrc80211", "probe of nrcdev")
    assert dmesg_inventory(other).nics == []
    sound = _FAILED.replace("nrc80211", "snd_soc_wm8960")  # no network driver: no NIC
    assert dmesg_inventory(sound).nics == []
